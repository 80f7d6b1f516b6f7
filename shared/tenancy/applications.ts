import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newId } from '../random.ts';
import { tooBusy } from '../rate-limit/rate-limit.ts';
import {
  type ApplicationRecord,
  applicationsOf,
  createApplication as createStoredApplication,
  deleteApplication as deleteStoredApplication,
  putApplication,
  readApplication,
  readApplicationNow,
  updateApplication as updateStoredApplication,
} from '../store/applications.ts';
import { type AuditRequest, changeEntry, changesBetween, valueAt } from './audit.ts';
import {
  type Configuration,
  configurationFromRecord,
  defaultConfiguration,
  storedConfig,
} from './configuration-document.ts';
import { endingsOf, endRest } from './impersonation.ts';
import type { Organization } from './organizations.ts';
import { applicationLimit } from './plans.ts';

/** How sign-in pages and emails present the application (all optional). */
interface Branding {
  /** `#rrggbb`. */
  primaryColor?: string;
  /** `#rrggbb`. */
  backgroundColor?: string;
}

export interface Application {
  id: string;
  organizationId: string;
  name: string;
  logoUrl: string | null;
  branding: Branding;
  /** Its configuration document (shared/tenancy/configuration.ts). */
  configuration: Configuration;
  /** Moved by every configuration write, which is conditioned on the version it read. */
  configurationVersion: number;
  createdAt: string;
  /**
   * Its end users and tenant organizations as requests counted them before the statistics aggregator;
   * `applicationTotals` (shared/tenancy/statistics.ts) adds what it has counted since.
   */
  userCount: number;
  organizationCount: number;
}

/** The fields of an application any key holder may see (`GET /application/by-api-key`). */
export const publicApplication = (app: Application) => ({
  id: app.id,
  name: app.name,
  logoUrl: app.logoUrl,
  branding: app.branding,
});

/** What its organization's members and its secret key see. */
export const applicationView = (app: Application) => ({
  ...publicApplication(app),
  organizationId: app.organizationId,
  createdAt: app.createdAt,
});

export function applicationFromRecord(record: ApplicationRecord): Application {
  return {
    id: record.id,
    organizationId: record.organizationId,
    name: record.name,
    logoUrl: record.logoUrl ?? null,
    branding: record.branding ?? {},
    configuration: configurationFromRecord(record),
    configurationVersion: record.configVersion ?? 0,
    createdAt: record.createdAt,
    userCount: Math.max(0, record.userCount ?? 0),
    organizationCount: Math.max(0, record.organizationCount ?? 0),
  };
}

/** The application item's own fields (shared/store/applications.ts adds the keys and counters). */
const storedApplication = (app: Application) => ({
  id: app.id,
  organizationId: app.organizationId,
  name: app.name,
  logoUrl: app.logoUrl,
  branding: app.branding,
  config: storedConfig(app.configuration),
  ...(app.configuration.origin === null ? {} : { origin: app.configuration.origin }),
  createdAt: app.createdAt,
});

export async function getApplication(deps: Deps, applicationId: string): Promise<Application | null> {
  const record = await readApplication(deps.db, applicationId);
  return record ? applicationFromRecord(record) : null;
}

export interface NewApplication {
  name: string;
  logoUrl?: string | null;
  branding?: Branding;
}

/**
 * Creates an application in `organization` (docs/api.md, Applications), counted against its plan in
 * the same transaction (docs/api.md, Organizations): 403 PLAN_LIMIT_REACHED with `details: { plan,
 * limit }` beyond it.
 */
export async function createApplication(
  deps: Deps,
  audit: AuditRequest,
  organization: Organization,
  input: NewApplication,
): Promise<Application> {
  const app = newApplication(deps, organization.id, input);
  const limit = applicationLimit(organization.plan);
  if (organization.planSetting !== null && organization.planSetting !== organization.plan) {
    deps.logger.log('error', 'unknown plan on an organization: the free plan applies', {
      organizationId: organization.id,
      plan: organization.planSetting,
    });
  }
  const stored = await createStoredApplication(
    deps.db,
    storedApplication(app),
    { plan: organization.planSetting, limit },
    changeEntry(deps, audit, 'application.created', {
      organizationId: organization.id,
      applicationId: app.id,
      targetId: app.id,
      targetLabel: app.name,
      changes: changesBetween({}, app, APPLICATION_FIELDS),
    }),
  );
  if (stored.outcome === 'created') return app;
  if (stored.outcome === 'missing') throw fail('notFound', 'No such organization');
  if (stored.outcome === 'conflict') throw tooBusy();
  throw fail('planLimit', `The ${organization.plan} plan allows ${limit} applications per organization`, {
    plan: organization.plan,
    limit,
  });
}

function newApplication(
  deps: Deps,
  organizationId: string,
  input: NewApplication,
  configuration = defaultConfiguration(),
): Application {
  return {
    id: newId(deps.random, 'app'),
    organizationId,
    name: input.name,
    logoUrl: input.logoUrl ?? null,
    branding: input.branding ?? {},
    configuration,
    configurationVersion: 0,
    createdAt: new Date(deps.clock.now()).toISOString(),
    userCount: 0,
    organizationCount: 0,
  };
}

/**
 * What a fixture may configure: the synthetic email domain only. OAuth resources are registered
 * through the configuration routes, which claim each one across all applications.
 */
export interface FixtureConfiguration {
  authentication?: { syntheticEmailDomain?: string | null };
}

/**
 * An application outside any organization's count: test fixtures and the bench only (the API
 * creates applications with `createApplication`).
 */
export async function createFixtureApplication(
  deps: Deps,
  input: NewApplication & { organizationId: string; configuration?: FixtureConfiguration },
): Promise<Application> {
  const configuration = defaultConfiguration();
  const domain = input.configuration?.authentication?.syntheticEmailDomain;
  if (domain) configuration.authentication.syntheticEmailDomain = domain.toLowerCase();
  const app = newApplication(deps, input.organizationId, input, configuration);
  const stored = await putApplication(deps.db, storedApplication(app));
  if (stored.outcome === 'exists') throw new Error('a new application id collided with a stored one');
  return app;
}

/** An organization's applications, oldest first; `total` is the organization's counter. */
export async function listApplications(
  deps: Deps,
  organization: Organization,
  page: { limit: number; offset: number },
) {
  const items = await applicationsOf(deps.db, organization.id, page);
  return {
    items: items.map(applicationFromRecord),
    page: {
      ...page,
      total: organization.applicationCount,
      hasMore: page.offset + items.length < organization.applicationCount,
    },
  };
}

export type ApplicationChange = Partial<{ name: string; logoUrl: string | null; branding: Branding }>;

/** The fields of an application its audit entries name, before and after. */
const APPLICATION_FIELDS = ['name', 'logoUrl', 'branding.primaryColor', 'branding.backgroundColor'];

/** Writes of an application's settings before a change that keeps losing races answers 429. */
const UPDATE_ROUNDS = 3;

/**
 * Changes an application's name, logo or branding. The write is conditioned on the settings as
 * read (a concurrent change fails it: read again and decide again), so the entry's `from` values
 * are what the change replaced; a change that leaves them as they are writes and records nothing,
 * decided from a strongly consistent read (a key caller's copy may be an eventually consistent one).
 */
export async function updateApplication(
  deps: Deps,
  audit: AuditRequest,
  grant: { application: Application; current: boolean },
  change: ApplicationChange,
): Promise<Application> {
  const app = grant.application;
  let current = app;
  let consistent = grant.current;
  for (let round = 0; round < UPDATE_ROUNDS; ) {
    const after: Application = {
      ...current,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.logoUrl !== undefined ? { logoUrl: change.logoUrl } : {}),
      ...(change.branding !== undefined ? { branding: change.branding } : {}),
    };
    const changes = changesBetween(current, after, APPLICATION_FIELDS);
    if (changes.length === 0 && consistent) return current;
    if (changes.length > 0) {
      round++;
      const outcome = await updateStoredApplication(
        deps.db,
        current.id,
        change,
        Object.fromEntries(APPLICATION_FIELDS.map((path) => [path, valueAt(current, path)])),
        changeEntry(deps, audit, 'application.updated', {
          organizationId: current.organizationId,
          applicationId: current.id,
          targetId: current.id,
          targetLabel: after.name,
          changes,
        }),
      );
      if (outcome === 'updated') return after;
      if (outcome === 'conflict') throw tooBusy();
    }
    const record = await readApplicationNow(deps.db, app.id);
    if (!record) throw fail('notFound', 'No such application');
    current = applicationFromRecord(record);
    consistent = true;
  }
  throw tooBusy();
}

/**
 * Deletes the application (docs/api.md, Applications): its keys are revoked and its OAuth resources
 * freed in the same transaction; its users, sessions and tenant organizations stay stored but
 * unreachable, since every session check and every management read goes through the application
 * item, and sessions expire within 7 days.
 */
export async function deleteApplication(deps: Deps, audit: AuditRequest, app: Application): Promise<void> {
  const now = new Date(deps.clock.now()).toISOString();
  // A key created, or a configuration written, between the reads and the delete fails its
  // condition: read again.
  let current = app;
  for (let attempt = 0; attempt < 3; attempt++) {
    // Its running impersonations end with it, recorded in its trail (docs/api.md, Impersonation):
    // its tokens would stop anyway, but no record is left running.
    const endings = await endingsOf(
      deps,
      current.organizationId,
      { applicationId: current.id },
      'application-deleted',
    );
    const outcome = await deleteStoredApplication(
      deps.db,
      {
        id: current.id,
        organizationId: current.organizationId,
        configurationVersion: current.configurationVersion,
        resources: current.configuration.oauth.resources,
      },
      now,
      changeEntry(deps, audit, 'application.deleted', {
        organizationId: current.organizationId,
        applicationId: current.id,
        targetId: current.id,
        targetLabel: current.name,
        // The application's own trail, where each end is recorded, is out of reach once it is gone:
        // the organization's entry names what the deletion ended.
        ...(endings.ids.length > 0
          ? { changes: [{ path: 'runningImpersonations', from: endings.ids, to: [] }] }
          : {}),
      }),
      endings.writes,
    );
    if (outcome === 'deleted') return endRest(deps, endings);
    if (outcome === 'conflict') break;
    const record = outcome === 'missing' ? undefined : await readApplicationNow(deps.db, app.id);
    if (!record) throw fail('notFound', 'No such application');
    current = applicationFromRecord(record);
  }
  throw tooBusy();
}
