/**
 * The item families (shared/store/keys.ts `keyFamilies`) that kinds of route touch together, for
 * the routes' `access.items` (docs/data-model.md, Item families and table grants): what a caller's
 * credentials read, what a sign-in writes. docs/security.md says which routes reach many families
 * and why.
 */
import type { AuthMode } from '../route-spec.ts';
import type { ItemFamily } from '../store/keys.ts';

/** A session caller (shared/sessions/resolve.ts): the session and profile, the account it belongs to. */
export const bySession = ['user', 'account'] as const satisfies readonly ItemFamily[];
/**
 * An API key caller: the key by its hash, the application it belongs to (and its last use), and the
 * application's trail, where the official origin learned from the key's request is recorded.
 */
export const byKey = ['apiKey', 'application', 'audit'] as const satisfies readonly ItemFamily[];
/**
 * A management caller (auth `manage`): a session or a key, and the permission check on the target
 * (shared/tenancy/authorize.ts): the organization's membership of the caller, the application.
 */
export const manager = [...bySession, ...byKey, 'organization'] as const satisfies readonly ItemFamily[];
/**
 * Families the previous release's code of a route wrote and this release's no longer does, kept in
 * the route's role for one release: CloudFormation updates a role before the functions that use
 * it, so the previous code runs a while under the new role (docs/operations.md, "Upgrading").
 * The application's statistics, which the aggregator now counts (docs/data-model.md, Statistics).
 */
export const previousRelease = ['statistics'] as const satisfies readonly ItemFamily[];

/**
 * A sign-in that ends in a session (shared/store/sign-in-transaction.ts): the account and its
 * pending sign-in, the rate limits, the new user and session, a device grant, the organization of
 * a platform owner (and, for one release, what the previous one wrote).
 */
export const signInDone = [
  ...byKey,
  'account',
  'rate',
  'user',
  'device',
  'organization',
  ...previousRelease,
] as const satisfies readonly ItemFamily[];
/** A session route that ends sessions: the sessions, an impersonation's record and audit (and `previousRelease`). */
export const endsSessions = [
  ...bySession,
  ...byKey,
  ...previousRelease,
  'impersonation',
  'audit',
] as const satisfies readonly ItemFamily[];

/**
 * The families each auth mode's caller resolution reads (shared/sessions/caller.ts): every route
 * declares at least these (test/unit/route-checklist.test.ts). A record over every mode: a new mode
 * does not compile until it says what its credentials read.
 */
export const credentialItems = {
  none: [],
  'key-optional': byKey,
  'secret-key': byKey,
  'api-key': byKey,
  // A session, or the key of the session's application beside it or alone.
  session: [...bySession, ...byKey],
  'session-optional': [...bySession, ...byKey],
  'sign-out': [...bySession, ...byKey],
  manage: manager,
  // The impersonation tokens are verified by their signature alone; the route reads the records.
  impersonation: [],
  'platform-cookie': bySession,
} as const satisfies Readonly<Record<AuthMode, readonly ItemFamily[]>>;
