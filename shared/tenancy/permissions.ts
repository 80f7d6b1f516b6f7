/**
 * The permission matrix (docs/api.md, Permission matrix), as data: who may do what to which kind of
 * target. Routes name an action (shared/routes.ts `permission`); shared/tenancy/authorize.ts is the
 * one function that decides from this table, and docs/api.md prints it. Handlers never check roles
 * by hand.
 *
 * Actors:
 * - `owner`, `admin`, `member`: a platform session of a member of the organization that owns the
 *   target (for an application: the organization it belongs to);
 * - `secretKey`, `publicKey`: a key of the target application (never of another);
 * - `endUser`: a session of one of the target application's own users;
 * - `platformUser`: any platform session, for actions that have no target yet (creating an
 *   organization, listing one's own).
 */
export type Role = 'owner' | 'admin' | 'member';
/** Every role, highest first. */
export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];
export type Actor = Role | 'secretKey' | 'publicKey' | 'endUser' | 'platformUser';
export type TargetKind = 'platform' | 'organization' | 'application';

interface Rule {
  readonly target: TargetKind;
  readonly allow: readonly Actor[];
}

const readers = ['owner', 'admin', 'member'] as const;
const managers = ['owner', 'admin'] as const;

export const permissions = {
  'organizations.create': { target: 'platform', allow: ['platformUser'] },
  'organizations.list': { target: 'platform', allow: ['platformUser'] },
  /** One's own invitations to platform organizations: list, accept, decline. */
  'invitations.list': { target: 'platform', allow: ['platformUser'] },
  'invitations.respond': { target: 'platform', allow: ['platformUser'] },
  'organizations.read': { target: 'organization', allow: readers },
  'organizations.update': { target: 'organization', allow: managers },
  'organizations.delete': { target: 'organization', allow: ['owner'] },
  'members.list': { target: 'organization', allow: readers },
  /** Inviting an address: it becomes a member only by accepting (shared/tenancy/invitations.ts). */
  'members.add': { target: 'organization', allow: managers },
  /**
   * The organization's pending invitations, sent by any of its managers: listing them, and revoking
   * one of a role at most one's own (`mayManageRank`), so a manager sees and can cancel every way in
   * that is still open (shared/tenancy/invitations.ts).
   */
  'invitations.read': { target: 'organization', allow: managers },
  'invitations.revoke': { target: 'organization', allow: managers },
  /** Removing or re-ranking a member; who may touch which rank is `mayManageRank` below. */
  'members.change': { target: 'organization', allow: managers },
  /** Any member may leave (the last owner may not: shared/tenancy/members.ts). */
  'members.leave': { target: 'organization', allow: readers },
  'applications.create': { target: 'organization', allow: managers },
  'applications.list': { target: 'organization', allow: readers },
  'applications.read': { target: 'application', allow: [...readers, 'secretKey'] },
  'applications.update': { target: 'application', allow: [...managers, 'secretKey'] },
  'applications.delete': { target: 'application', allow: ['owner'] },
  /** A key never mints or revokes keys: a leaked secret key cannot make itself a successor. */
  'apiKeys.create': { target: 'application', allow: managers },
  'apiKeys.list': { target: 'application', allow: [...readers, 'secretKey'] },
  'apiKeys.revoke': { target: 'application', allow: managers },
  /** Insights: an application's counters (shared/tenancy/statistics.ts); a public key sits in browsers. */
  'statistics.read': { target: 'application', allow: [...readers, 'secretKey'] },
  /**
   * Acting as one of the application's end users; a session of the application never may
   * (docs/api.md, Impersonation).
   */
  'impersonation.start': { target: 'application', allow: managers },
  /** The application's audit trail: every administrative change inside it (docs/api.md "Audit trail"). */
  'audit.read': { target: 'application', allow: managers },
  /** The organization's audit trail: its members, invitations, and its applications' creation and deletion. */
  'organizationAudit.read': { target: 'organization', allow: managers },
  /** The application's end users: list, search, read (docs/api.md, Users). */
  'users.read': { target: 'application', allow: [...readers, 'secretKey'] },
  /** Update, disable, enable, delete an end user, revoke its sessions. */
  'users.write': { target: 'application', allow: [...managers, 'secretKey'] },
  /** The application's tenant organizations and their members (docs/api.md, "Tenant organizations"). */
  'tenantOrganizations.read': { target: 'application', allow: [...readers, 'secretKey'] },
  'tenantOrganizations.write': { target: 'application', allow: [...managers, 'secretKey'] },
  'configuration.read': { target: 'application', allow: [...readers, 'secretKey'] },
  /**
   * Replacing or patching it, the official origin included (docs/api.md, "Origin learning": the
   * owner may set it).
   */
  'configuration.write': { target: 'application', allow: [...managers, 'secretKey'] },
  /**
   * Changing social sign-in (its providers and return URLs) within a configuration write
   * (docs/api.md, "Configuration and origin learning").
   * Whoever sets them can sign in as the application's users (an OpenID Connect issuer of their own
   * vouches for any address; a return URL of their own receives the codes), so, as for
   * impersonation, only a signed-in owner or admin; never the secret key.
   */
  'socialSignIn.write': { target: 'application', allow: managers },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof permissions;

export const mayAct = (action: Action, actor: Actor): boolean =>
  (permissions[action].allow as readonly Actor[]).includes(actor);

const rank: Record<Role, number> = { owner: 3, admin: 2, member: 1 };

/**
 * Within an organization, a manager acts only on members of at most its own rank and grants at
 * most its own role: an admin cannot remove, demote or create an owner.
 */
export const mayManageRank = (actor: Role, ...roles: Role[]): boolean =>
  roles.every((role) => rank[role] <= rank[actor]);

/**
 * Whether `actor` may set a member of role `from` to `to` (or remove it): any member may leave
 * (remove itself); otherwise the actor must be a manager, acting on a rank at most its own and
 * granting at most its own role. A secret key of a tenant organization's application manages any rank.
 */
export function mayChangeMember(
  actor: { kind: 'member'; role: Role; userId: string } | { kind: 'secretKey' },
  target: { userId: string; role: Role },
  to: Role | 'removed',
): boolean {
  if (actor.kind === 'secretKey') return true;
  if (to === 'removed' && target.userId === actor.userId) return true;
  if (!mayAct('members.change', actor.role)) return false;
  return mayManageRank(actor.role, target.role, ...(to === 'removed' ? [] : [to]));
}
