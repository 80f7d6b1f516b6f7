import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { User } from '../identity/user.ts';
import { newId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import { auditWrites } from '../store/audit.ts';
import {
  createOrganization as createStoredOrganization,
  deleteOrganization as deleteStoredOrganization,
  membershipsOf,
  type OrganizationRecord,
  readOrganization,
  readOrganizations,
  renameOrganization as renameStoredOrganization,
  uncountCreatedOrganization,
} from '../store/organizations.ts';
import { type AuditRequest, changeEntry, changesBetween } from './audit.ts';
import type { Role } from './permissions.ts';
import { applicationLimit, ORGANIZATIONS_PER_ACCOUNT, type Plan, planOf } from './plans.ts';

export interface Organization {
  id: string;
  name: string;
  /** `platform`: owns applications; `tenant`: one application's own organization of end users. */
  kind: 'platform' | 'tenant';
  applicationId: string | null;
  plan: Plan;
  /** The `plan` attribute as an operator wrote it (null: none); `plan` is what it means. */
  planSetting: string | null;
  applicationCount: number;
  memberCount: number;
  createdAt: string;
  /** The platform account that created it (its count of organizations: ORGANIZATIONS_PER_ACCOUNT). */
  createdBy: string | null;
}

export function organizationFromRecord(record: OrganizationRecord): Organization {
  return {
    id: record.id,
    name: record.name,
    kind: record.kind,
    applicationId: record.applicationId ?? null,
    plan: planOf(record.plan),
    planSetting: typeof record.plan === 'string' ? record.plan : null,
    applicationCount: record.applicationCount ?? 0,
    // Organizations made at first sign-in before the counters existed have their one owner.
    memberCount: record.memberCount ?? 1,
    createdAt: record.createdAt,
    // Organizations made at first sign-in before `createdBy` existed name their owner.
    createdBy: record.createdBy ?? record.ownerId ?? null,
  };
}

/** A platform organization as its members see it: the plan and its usage (docs/api.md, Organizations). */
export const organizationView = (org: Organization, role: Role) => ({
  id: org.id,
  name: org.name,
  role,
  plan: { name: org.plan, applicationLimit: applicationLimit(org.plan) },
  usage: { applications: org.applicationCount, members: org.memberCount },
  createdAt: org.createdAt,
});

/**
 * `POST /organizations` (docs/api.md, Organizations): a platform organization owned by the caller,
 * on the free plan.
 */
export async function createOrganization(
  deps: Deps,
  audit: AuditRequest,
  owner: User,
  name: string,
): Promise<Organization> {
  const createdAt = new Date(deps.clock.now()).toISOString();
  const stored = { id: newId(deps.random, 'org'), name, kind: 'platform' as const, createdAt };
  const written = await createStoredOrganization(
    deps.db,
    stored,
    { userId: owner.id, email: owner.email, role: 'owner', createdAt },
    ORGANIZATIONS_PER_ACCOUNT,
    changeEntry(deps, audit, 'organization.created', {
      organizationId: stored.id,
      targetId: stored.id,
      targetLabel: name,
      changes: [{ path: 'name', from: null, to: name }],
    }),
  );
  if (written === 'conflict') throw tooBusy();
  if (written === 'overLimit') {
    throw fail(
      'organizationLimit',
      `An account creates at most ${ORGANIZATIONS_PER_ACCOUNT} organizations; delete one first`,
      {
        limit: ORGANIZATIONS_PER_ACCOUNT,
      },
    );
  }
  return {
    ...stored,
    applicationId: null,
    plan: 'free',
    planSetting: 'free',
    applicationCount: 0,
    memberCount: 1,
    createdBy: owner.id,
  };
}

/** The caller's platform organizations with their role, plan and usage, oldest first. */
export async function listOrganizationsOf(deps: Deps, userId: string) {
  const memberships = await membershipsOf(deps.db, userId);
  const roles = new Map(memberships.map((membership) => [membership.organizationId, membership.role]));
  const found = await readOrganizations(deps.db, [...roles.keys()]);
  return found
    .map(organizationFromRecord)
    .filter((org) => org.kind === 'platform')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((org) => organizationView(org, roles.get(org.id) ?? 'member'));
}

/** Renames before a rename that keeps losing to concurrent ones answers 429. */
const RENAME_ROUNDS = 3;

/**
 * Renames a platform or tenant organization, conditioned on the name as read (a concurrent rename
 * fails it: read again), so the entry's `from` is the name it replaced; the same name again changes
 * nothing and records nothing. Its entry goes to the organization's own trail, or, for a tenant
 * organization, its application's.
 */
export async function renameOrganization(
  deps: Deps,
  audit: AuditRequest,
  org: Organization,
  name: string,
): Promise<Organization> {
  let current = org;
  for (let round = 0; round < RENAME_ROUNDS; round++) {
    if (name === current.name) return current;
    const entry = changeEntry(
      deps,
      audit,
      current.applicationId ? 'tenantOrganization.updated' : 'organization.updated',
      {
        organizationId: current.id,
        ...(current.applicationId ? { applicationId: current.applicationId } : {}),
        targetId: current.id,
        targetLabel: name,
        changes: changesBetween({ name: current.name }, { name }, ['name']),
      },
    );
    const outcome = await renameStoredOrganization(
      deps.db,
      current.id,
      { from: current.name, to: name },
      entry,
    );
    if (outcome === 'renamed') return { ...current, name };
    if (outcome === 'missing') throw fail('notFound', 'No such organization');
    if (outcome === 'conflict') throw tooBusy();
    const record = await readOrganization(deps.db, current.id);
    if (!record) throw fail('notFound', 'No such organization');
    current = organizationFromRecord(record);
  }
  throw tooBusy();
}

/** Deletes an organization that holds no application (409 ORGANIZATION_NOT_EMPTY otherwise). */
export async function deleteOrganization(deps: Deps, audit: AuditRequest, org: Organization): Promise<void> {
  const creator = org.createdBy ? [uncountCreatedOrganization(deps.db.table, org.createdBy)] : [];
  const entry = changeEntry(deps, audit, 'organization.deleted', {
    organizationId: org.id,
    targetId: org.id,
    targetLabel: org.name,
  });
  const outcome = await deleteStoredOrganization(deps.db, org.id, [
    ...creator,
    ...auditWrites(deps.db.table, entry),
  ]);
  if (outcome === 'deleted') return;
  if (outcome === 'conflict') throw tooBusy();
  if (outcome === 'missing') throw fail('notFound', 'No such organization');
  throw fail('organizationNotEmpty', 'Delete the organization’s applications first', {
    applications: org.applicationCount,
  });
}
