/**
 * The item families each route's function touches: the one place they are declared
 * (docs/data-model.md, Item families and table grants). lib/grants.ts renders them, through
 * `keyFamilies` (shared/store/keys.ts), into the `dynamodb:LeadingKeys` condition of the route's
 * role; test/http/item-families.test.ts records the partitions the sign-in, session and management
 * paths touch and checks each is declared here. docs/security.md says which routes reach many
 * families and why.
 */
import type { RouteId } from './routes.ts';
import type { ItemFamily } from './store/keys.ts';

/** A session caller (shared/sessions/resolve.ts): the session and profile, the account it belongs to. */
const bySession = ['user', 'account'] as const satisfies readonly ItemFamily[];
/**
 * An API key caller: the key by its hash, the application it belongs to (and its last use), and the
 * application's trail, where the official origin learned from the key's request is recorded.
 */
const byKey = ['apiKey', 'application', 'audit'] as const satisfies readonly ItemFamily[];
/**
 * A management caller (auth `manage`): a session or a key, and the permission check on the target
 * (shared/tenancy/authorize.ts): the organization's membership of the caller, the application.
 */
const manager = [...bySession, ...byKey, 'organization'] as const satisfies readonly ItemFamily[];
/**
 * A sign-in that ends in a session (shared/store/sign-in-transaction.ts): the account and its
 * pending sign-in, the rate limits, the new user and session, a device grant, the organization of
 * a platform owner, the application's statistics.
 */
const signInDone = [
  ...byKey,
  'account',
  'rate',
  'user',
  'device',
  'organization',
  'statistics',
] as const satisfies readonly ItemFamily[];
/** A session route that ends sessions: the sessions, the day's statistics, an impersonation's record and audit. */
const endsSessions = [
  ...bySession,
  ...byKey,
  'statistics',
  'impersonation',
  'audit',
] as const satisfies readonly ItemFamily[];

export const routeItems: Readonly<Record<RouteId, readonly ItemFamily[]>> = {
  preflight: [],
  root: [],
  status: ['health'],
  jwks: [],
  openApi: [],
  oauthAuthorizationServer: [],
  oauthProtectedResource: [],
  oauthProtectedResourceOfApplication: ['application'],
  // The platform cookie's session; the resource, the application and the membership (the role);
  // the pending request written.
  oauthAuthorize: [...bySession, 'resource', 'application', 'organization', 'oauthRequest'],
  // With recent accounts: their profiles and the per-IP limit.
  oauthSignInPage: ['oauthRequest', 'application', 'rate', 'user'],
  oauthSignInStart: ['oauthRequest', 'application', 'account', 'rate', 'device', 'user'],
  oauthSignInVerify: [...signInDone, 'oauthRequest'],
  // The pending request, then forgetRecentAccount's reads: the limit, the profiles, their applications.
  oauthSignInForget: ['oauthRequest', 'rate', 'user', 'application'],
  // The request spent, the role read again, the code written.
  // The per-IP limit, the profiles of the cookie's accounts and their applications.
  listRecentAccounts: ['rate', 'user', 'application'],
  forgetRecentAccount: ['rate', 'user', 'application'],
  forgetRecentAccounts: ['rate'],
  socialStart: ['application', 'rate', 'social'],
  // The application's page: it, the per-IP limits, the profiles of the cookie's accounts.
  socialPage: ['application', 'rate', 'user'],
  socialForget: ['rate', 'user', 'application'],
  // A first sign-in creates the account, its user and tenant organization, and counts the new user.
  socialCallback: ['application', 'rate', 'social', 'account', 'user', 'organization', 'statistics'],
  socialExchange: [...byKey, 'social', 'account', 'user', 'statistics'],
  oauthConsent: [...bySession, 'oauthRequest', 'application', 'organization', 'authorizationCode'],
  codeStart: [...byKey, 'account', 'rate', 'device'],
  codeVerify: signInDone,
  codeApprove: [...byKey, 'account', 'rate', 'device'],
  codePoll: signInDone,
  codePeek: [...byKey, 'account', 'rate'],
  session: [...bySession, ...byKey, 'impersonation'],
  refresh: endsSessions,
  signOut: endsSessions,
  listSessions: [...bySession, ...byKey],
  revokeSessionById: endsSessions,
  revokeOtherSessions: endsSessions,
  updateUser: [...bySession, ...byKey, 'image'],
  image: ['image'],
  createOrganization: [...manager, 'audit'],
  listOrganizations: [...manager, 'userMemberships'],
  getOrganization: manager,
  updateOrganization: [...manager, 'audit'],
  deleteOrganization: [...manager, 'organizationApplications', 'invitation', 'audit'],
  listMembers: manager,
  addMember: [...manager, 'invitation', 'audit'],
  // Losing the role or the membership ends the member's running impersonations: their records,
  // their sessions (the user family, in manager) and their trail entries.
  updateMember: [...manager, 'audit', 'impersonation'],
  removeMember: [...manager, 'audit', 'impersonation'],
  // The organization's invitations on gsi1, then their inviters' memberships (ORG#, in manager).
  listOrganizationInvitations: [...manager, 'organizationInvitations'],
  revokeInvitation: [...manager, 'invitation', 'audit'],
  listInvitations: [...manager, 'invitation'],
  acceptInvitation: [...manager, 'invitation', 'audit'],
  declineInvitation: [...manager, 'invitation', 'audit'],
  createApplication: [...manager, 'organizationApplications', 'audit'],
  listApplications: [...manager, 'organizationApplications'],
  getApplication: manager,
  updateApplication: [...manager, 'resource', 'audit'],
  // Its running impersonations end with it (their records, sessions and trail entries).
  deleteApplication: [...manager, 'organizationApplications', 'resource', 'audit', 'impersonation'],
  applicationByApiKey: byKey,
  createApiKey: [...manager, 'audit'],
  listApiKeys: manager,
  revokeApiKey: [...manager, 'audit'],
  getStatistics: [...manager, 'statistics'],
  startImpersonation: [...manager, 'impersonation', 'audit', 'statistics'],
  endImpersonation: [...bySession, ...byKey, 'impersonation', 'audit'],
  listAudit: [...manager, 'audit'],
  listOrganizationAudit: [...manager, 'audit'],
  listUsers: [...manager, 'applicationUsers'],
  searchUsers: [...manager, 'applicationUsers'],
  getUser: manager,
  updateApplicationUser: [...manager, 'image', 'audit'],
  // Ending the user's sessions ends a live impersonation of it too: its record and audit entry.
  disableUser: [...manager, 'statistics', 'impersonation', 'audit'],
  enableUser: [...manager, 'audit'],
  deleteUser: [...manager, 'image', 'statistics', 'userMemberships', 'impersonation', 'audit'],
  revokeUserSessions: [...manager, 'statistics', 'impersonation', 'audit'],
  listTenantOrganizations: [...manager, 'applicationOrganizations'],
  createTenantOrganization: [...manager, 'applicationOrganizations', 'audit'],
  getTenantOrganization: manager,
  updateTenantOrganization: [...manager, 'audit'],
  deleteTenantOrganization: [...manager, 'userMemberships', 'audit'],
  listTenantMembers: manager,
  addTenantMember: [...manager, 'audit'],
  updateTenantMember: [...manager, 'audit'],
  removeTenantMember: [...manager, 'audit'],
  getConfiguration: manager,
  // A change of social sign-in appends its audit entry in the configuration's transaction.
  replaceConfiguration: [...manager, 'resource', 'audit'],
  patchConfiguration: [...manager, 'resource', 'audit'],
  // The grant (in its user's partition), the application, the caller's membership of the owning
  // organization (read on every call), and what the tools read and write: the application's users,
  // statistics and tenant organizations; revoking sessions ends impersonations and records it.
  mcp: [
    'user',
    'application',
    'organization',
    'applicationUsers',
    'applicationOrganizations',
    'statistics',
    'audit',
    'impersonation',
  ],
  mcpGet: [],
  mcpDelete: [],
  // The code or refresh token by hash, the grant (in its user's partition), the user's role on
  // the application (the application and the owning organization's membership), and the holder of
  // an external resource (it may have been released since the consent).
  oauthToken: ['authorizationCode', 'refreshToken', 'user', 'application', 'organization', 'resource'],
  listConnections: [...bySession, ...byKey],
  revokeConnection: [...bySession, ...byKey],
};
