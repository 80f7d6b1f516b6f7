/**
 * An application's tenant organizations
 * (docs/api.md, "Application users and tenant organizations": each end user's first sign-in
 * makes one it owns), managed by the application's secret key or the owners and admins of the
 * organization that owns the application (the matrix decided before this). An organization of
 * another application, or a platform organization, is 404 here.
 */
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { readAccount } from '../store/accounts.ts';
import {
  createTenantOrganization as createStored,
  deleteTenantOrganization as deleteStored,
  readOrganization,
  tenantOrganizationsOf,
} from '../store/organizations.ts';
import { type ProfileRecord, readUser } from '../store/users.ts';
import type { Application } from './applications.ts';
import { type AuditRequest, changeEntry } from './audit.ts';
import type { MemberActor } from './members.ts';
import { type Organization, organizationFromRecord } from './organizations.ts';
import { applicationTotals } from './statistics.ts';

export const tenantOrganizationView = (org: Organization) => ({
  id: org.id,
  name: org.name,
  applicationId: org.applicationId as string,
  memberCount: org.memberCount,
  createdAt: org.createdAt,
});

/**
 * Who changes a tenant organization's members: the application's managers act on any rank (their
 * own role is of the organization owning the application, not of this one), as its secret key does.
 */
export const applicationManager: MemberActor = { kind: 'secretKey' };

/** The application's tenant organization `organizationId`, or 404. */
export async function findTenantOrganization(
  deps: Deps,
  application: Application,
  organizationId: string,
): Promise<Organization> {
  const record = await readOrganization(deps.db, organizationId);
  const org = record ? organizationFromRecord(record) : null;
  if (org?.kind !== 'tenant' || org.applicationId !== application.id) {
    throw fail('notFound', 'No such organization');
  }
  return org;
}

/**
 * One page, by id; `total` is the application's counter, which the statistics aggregator keeps a few
 * seconds behind (docs/api.md, Tenant organizations), so `hasMore` comes from reading one past the page.
 */
export async function listTenantOrganizations(
  deps: Deps,
  application: Application,
  page: { limit: number; offset: number },
) {
  const records = await tenantOrganizationsOf(deps.db, application.id, { ...page, limit: page.limit + 1 });
  const totals = await applicationTotals(deps, application);
  const items = records.slice(0, page.limit).map(organizationFromRecord);
  return {
    items: items.map(tenantOrganizationView),
    page: { ...page, total: totals.organizations, hasMore: records.length > page.limit },
  };
}

/** Creates a tenant organization owned by one of the application's users (by id or address): 404 for none. */
export async function createTenantOrganization(
  deps: Deps,
  audit: AuditRequest,
  application: Application,
  input: { name: string; userId?: string; email?: string },
): Promise<Organization> {
  const owner = await ownerOf(deps, application, input);
  const createdAt = new Date(deps.clock.now()).toISOString();
  const stored = {
    id: newId(deps.random, 'org'),
    name: input.name,
    kind: 'tenant' as const,
    applicationId: application.id,
    createdAt,
  };
  const written = await createStored(
    deps.db,
    stored,
    {
      userId: owner.id,
      email: owner.email,
      role: 'owner',
      createdAt,
    },
    changeEntry(deps, audit, 'tenantOrganization.created', {
      applicationId: application.id,
      organizationId: stored.id,
      targetId: stored.id,
      targetLabel: stored.name,
      changes: [
        { path: 'name', from: null, to: stored.name },
        { path: 'owner', from: null, to: owner.id },
      ],
    }),
  );
  if (written.outcome === 'conflict') throw tooBusy();
  if (written.outcome === 'failed') {
    if (written.failed.includes(0)) throw new Error('a new organization id collided with a stored one');
    throw fail('notFound', 'No such application');
  }
  return {
    ...stored,
    plan: 'free',
    planSetting: 'free',
    applicationCount: 0,
    memberCount: 1,
    createdBy: null,
  };
}

async function ownerOf(
  deps: Deps,
  application: Application,
  input: { userId?: string; email?: string },
): Promise<ProfileRecord> {
  const found = input.email
    ? await readAccount(deps.db, application.id, input.email)
    : await readUser(deps.db, input.userId as string);
  if (!found || found.scope !== application.id) throw fail('notFound', 'No such user');
  return found;
}

/** Deletes the organization and its memberships; its users stay. */
export async function deleteTenantOrganization(
  deps: Deps,
  audit: AuditRequest,
  application: Application,
  org: Organization,
) {
  const outcome = await deleteStored(deps.db, application.id, org.id, {
    audit: changeEntry(deps, audit, 'tenantOrganization.deleted', {
      applicationId: application.id,
      organizationId: org.id,
      targetId: org.id,
      targetLabel: org.name,
    }),
  });
  if (outcome === 'conflict') throw tooBusy();
  // A tenant organization holds no application: only its disappearance fails the condition.
  if (outcome === 'holdsApplications') throw fail('notFound', 'No such organization');
}
