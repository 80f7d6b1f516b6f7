/**
 * Every key of the single table, in one place (docs/data-model.md lists the access patterns).
 * A scope is `platform` or an application id: accounts, codes and sessions never cross scopes.
 */
export type Scope = string;
export const PLATFORM: Scope = 'platform';

export const keys = {
  application: (applicationId: string) => ({ pk: `APP#${applicationId}`, sk: 'APP' }),
  /** gsi1 attributes listing an organization's applications. */
  organizationApplication: (organizationId: string, applicationId: string) => ({
    gsi1pk: `ORGAPPS#${organizationId}`,
    gsi1sk: `APP#${applicationId}`,
  }),
  /** The listing entry of an application's key, by key id: type, prefix, times; and the key's hash. */
  apiKeyEntry: (applicationId: string, keyId: string) => ({ pk: `APP#${applicationId}`, sk: `KEY#${keyId}` }),
  apiKeyEntryPrefix: 'KEY#',
  apiKey: (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** An OAuth resource URI (normalised) and the one application that registered it. */
  resource: (uri: string) => ({ pk: `RESOURCE#${uri}`, sk: 'RESOURCE' }),
  /** Unique per normalised email and scope; carries a copy of the public profile. */
  account: (scope: Scope, email: string) => ({ pk: `ACCOUNT#${scope}#${email}`, sk: 'ACCOUNT' }),
  /** The one pending sign-in request of an address in a scope (a new start replaces it). */
  signIn: (scope: Scope, email: string) => ({ pk: `ACCOUNT#${scope}#${email}`, sk: 'SIGNIN' }),
  /**
   * A stored profile image, by its id (owner and bytes, shared/identity/image.ts): a small head, read
   * alone to revalidate, and the bytes in parts (one item holds at most 400 KB).
   */
  image: (imageId: string) => `IMAGE#${imageId}`,
  imageHead: (imageId: string) => ({ pk: `IMAGE#${imageId}`, sk: 'HEAD' }),
  imagePart: (imageId: string, index: number) => ({ pk: `IMAGE#${imageId}`, sk: `PART#${index}` }),
  device: (deviceCodeHash: string) => ({ pk: `DEVICE#${deviceCodeHash}`, sk: 'DEVICE' }),
  /** A social sign-in between start and callback, by the hash of its `state` (docs/data-model.md, Items). */
  socialState: (stateHash: string) => ({ pk: `SOCIAL#${stateHash}`, sk: 'STATE' }),
  /** A social sign-in's one-time exchange code, by its hash (docs/data-model.md, Items). */
  socialCode: (codeHash: string) => ({ pk: `SOCIAL#${codeHash}`, sk: 'CODE' }),
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  /** gsi1 attributes of an application user's profile item: the application's users by address. */
  applicationUser: (applicationId: string, email: string) => ({
    gsi1pk: `APPUSERS#${applicationId}`,
    gsi1sk: `EMAIL#${email}`,
  }),
  applicationUserEmailPrefix: 'EMAIL#',
  /** gsi2 attributes of a named application user's profile item: by lower-cased name (search). */
  applicationUserName: (applicationId: string, searchName: string, userId: string) => ({
    gsi2pk: `APPUSERS#${applicationId}`,
    gsi2sk: `NAME#${searchName}#${userId}`,
  }),
  applicationUserNamePrefix: 'NAME#',
  session: (userId: string, sessionId: string) => ({ pk: `USER#${userId}`, sk: `SESSION#${sessionId}` }),
  sessionPrefix: 'SESSION#',
  organization: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'ORG' }),
  /** A pending invitation of an address to a platform organization (one per address and organization). */
  invitation: (email: string, organizationId: string) => ({
    pk: `INVITE#${email}`,
    sk: `ORG#${organizationId}`,
  }),
  /**
   * gsi1 attributes of an invitation: the organization's pending invitations, which its managers
   * list and revoke (docs/api.md, Organizations).
   */
  organizationInvitation: (organizationId: string, email: string) => ({
    gsi1pk: `ORGINVITES#${organizationId}`,
    gsi1sk: `INVITE#${email}`,
  }),
  /** gsi1 attributes listing an application's tenant organizations. */
  tenantOrganization: (applicationId: string, organizationId: string) => ({
    gsi1pk: `APPORGS#${applicationId}`,
    gsi1sk: `ORG#${organizationId}`,
  }),
  member: (organizationId: string, userId: string) => ({
    pk: `ORG#${organizationId}`,
    sk: `MEMBER#${userId}`,
    gsi1pk: `USER#${userId}`,
    gsi1sk: `ORG#${organizationId}`,
  }),
  /**
   * The sliding log of one rate limit for one subject (an IP or a mailbox). `HITS`, not the earlier
   * `LOG`: logs of the list shape before hit ids are never read again and expire by TTL.
   */
  rateLog: (bucket: string, subject: string) => ({ pk: `RATE#${bucket}#${subject}`, sk: 'HITS' }),
  /**
   * The sign-in emails the whole service sent in one clock hour (docs/security.md, "Mail reputation"), `hour`
   * counted in hours since the epoch: a counter, not a log, since the cap is in the thousands.
   */
  mailCap: (hour: number) => ({ pk: `RATE#mail-hour#${hour}`, sk: 'COUNT' }),
  /**
   * An application's statistics (docs/data-model.md, Statistics), one partition per application,
   * written only by the statistics aggregator: new users and sign-ins of one UTC day (sorted by
   * date, so a range is one Query), the sessions counted under one UTC day of issue or refresh, the
   * same per minute in one item per UTC hour, and the user and tenant organization totals.
   */
  statsDay: (applicationId: string, date: string) => ({ pk: `STATS#${applicationId}`, sk: `DAY#${date}` }),
  statsSessions: (applicationId: string, date: string) => ({
    pk: `STATS#${applicationId}`,
    sk: `SESSIONS#${date}`,
  }),
  /** `hour`: `YYYY-MM-DDTHH` (UTC). */
  statsSessionHour: (applicationId: string, hour: string) => ({
    pk: `STATS#${applicationId}`,
    sk: `SESSIONS#${hour}`,
  }),
  statsTotals: (applicationId: string) => ({ pk: `STATS#${applicationId}`, sk: 'TOTALS' }),
  /**
   * A record of the table's stream the statistics aggregator has counted (docs/data-model.md,
   * Statistics), by the record's event id: a second delivery of it counts nothing. It lapses (TTL)
   * after the stream's 24 hours.
   */
  countedRecord: (eventId: string) => ({ pk: `STREAM#${eventId}`, sk: 'COUNTED' }),
  /**
   * An impersonation record (docs/data-model.md, "Impersonation and audit"), kept after it ends or lapses (no
   * `expiresAt`: never TTL-deleted).
   */
  impersonation: (impersonationId: string) => ({ pk: `IMP#${impersonationId}`, sk: 'IMP' }),
  /**
   * A running impersonation, listed in the partition of the organization whose application it is
   * in, by its support user and lapse time: what a membership change or an application's deletion
   * ends (docs/data-model.md, Impersonation and audit). In the table, not an index, so the list
   * is read strongly consistent; each entry lapses (TTL) with its impersonation.
   */
  liveImpersonation: (
    organizationId: string,
    actorId: string,
    lapsesAt: string,
    impersonationId: string,
  ) => ({
    pk: `ORG#${organizationId}`,
    sk: `IMP#${actorId}#${lapsesAt}#${impersonationId}`,
  }),
  liveImpersonationPrefix: 'IMP#',
  /**
   * A trail: an organization's or an application's append-only audit entries, sorted by time. (Trails
   * written before this layout also hold a `TOTAL` counter item, which no read includes.)
   */
  audit: (trail: string) => `AUDIT#${trail}`,
  auditEntry: (trail: string, at: string, entryId: string) => ({
    pk: `AUDIT#${trail}`,
    sk: `ENTRY#${at}#${entryId}`,
  }),
  /**
   * OAuth (docs/data-model.md, "OAuth authorization"; the records: oauth.ts, oauth-requests.ts): a
   * pending authorization request between authorize, the sign-in bridge and consent; an authorization
   * code by its hash; a grant (a connection) in its user's partition, so the MCP endpoint reads it from
   * the token's `sub` and `gid`; a refresh token by its hash.
   */
  oauthRequest: (requestId: string) => ({ pk: `OAUTHREQ#${requestId}`, sk: 'REQUEST' }),
  authorizationCode: (codeHash: string) => ({ pk: `OAUTHCODE#${codeHash}`, sk: 'CODE' }),
  grant: (userId: string, grantId: string) => ({ pk: `USER#${userId}`, sk: `GRANT#${grantId}` }),
  grantPrefix: 'GRANT#',
  refreshToken: (tokenHash: string) => ({ pk: `REFRESH#${tokenHash}`, sk: 'REFRESH' }),
  /** Never written: `/status` reads it to prove the table answers. */
  health: { pk: 'HEALTH', sk: 'HEALTH' },
} as const;

/**
 * A page's cursor of a trail (shared/contracts/audit.ts refuses any other): the sort key of its last
 * entry, as `keys.auditEntry` builds it from the entry's time and id (`evt_...`).
 */
export const AUDIT_CURSOR = /^ENTRY#[0-9T:.Z-]+#evt_[\w-]+$/;

/**
 * The item families of the table (docs/data-model.md, "Item families and table grants"), by the partition-key
 * prefix every key of the family starts with: `table` families are partitions of the table (`pk`), `index`
 * families are partitions of gsi1/gsi2 (`gsi1pk`, `gsi2pk`), which a Query on an index is authorized by. A
 * route declares the families it touches (its entry's `access.items`); lib/grants.ts renders them as
 * `dynamodb:LeadingKeys` conditions, so a function cannot reach a partition of another family. `*` is IAM's
 * wildcard (`StringLike`); no prefix is a prefix of another family's, except that `USER#` names both the
 * users' partitions and their memberships on gsi1.
 */
export const keyFamilies = {
  /** `APP#<id>`: the application, and its API keys' listing entries. */
  application: { partition: 'table', pattern: 'APP#*' },
  /** `APIKEY#<hash>`: an API key by its hash. */
  apiKey: { partition: 'table', pattern: 'APIKEY#*' },
  /** `RESOURCE#<uri>`: an OAuth resource URI and its application. */
  resource: { partition: 'table', pattern: 'RESOURCE#*' },
  /** `ACCOUNT#<scope>#<email>`: the account and the pending sign-in of an address. */
  account: { partition: 'table', pattern: 'ACCOUNT#*' },
  /** `IMAGE#<id>`: a stored profile image. */
  image: { partition: 'table', pattern: 'IMAGE#*' },
  /** `DEVICE#<hash>`: a device-code sign-in waiting to be polled. */
  device: { partition: 'table', pattern: 'DEVICE#*' },
  /** `SOCIAL#<hash>`: a social sign-in's state (start to callback) and its exchange code (callback to exchange). */
  social: { partition: 'table', pattern: 'SOCIAL#*' },
  /** `USER#<id>`: the user's profile, its sessions and its OAuth grants. */
  user: { partition: 'table', pattern: 'USER#*' },
  /** `ORG#<id>`: the organization, its members and the running impersonations in its applications. */
  organization: { partition: 'table', pattern: 'ORG#*' },
  /** `INVITE#<email>`: the pending invitations of an address. */
  invitation: { partition: 'table', pattern: 'INVITE#*' },
  /** `RATE#<bucket>#<subject>`: rate-limit logs and the hourly mail counter. */
  rate: { partition: 'table', pattern: 'RATE#*' },
  /** `STATS#<applicationId>`: an application's statistics. */
  statistics: { partition: 'table', pattern: 'STATS#*' },
  /** `STREAM#<eventId>`: a record of the table's stream the statistics aggregator has counted. */
  countedRecord: { partition: 'table', pattern: 'STREAM#*' },
  /** `IMP#<id>`: an impersonation record. */
  impersonation: { partition: 'table', pattern: 'IMP#*' },
  /** `AUDIT#<organizationId or applicationId>`: an audit trail. */
  audit: { partition: 'table', pattern: 'AUDIT#*' },
  /** `OAUTHREQ#<id>`: a pending OAuth authorization request. */
  oauthRequest: { partition: 'table', pattern: 'OAUTHREQ#*' },
  /** `OAUTHCODE#<hash>`: an OAuth authorization code. */
  authorizationCode: { partition: 'table', pattern: 'OAUTHCODE#*' },
  /** `REFRESH#<hash>`: an OAuth refresh token. */
  refreshToken: { partition: 'table', pattern: 'REFRESH#*' },
  /** `HEALTH`: the one item `/status` reads. */
  health: { partition: 'table', pattern: 'HEALTH' },
  /** gsi1 `USER#<id>`: a user's memberships. */
  userMemberships: { partition: 'index', pattern: 'USER#*' },
  /** gsi1 `ORGAPPS#<id>`: an organization's applications. */
  organizationApplications: { partition: 'index', pattern: 'ORGAPPS#*' },
  /** gsi1 `ORGINVITES#<id>`: an organization's invitations. */
  organizationInvitations: { partition: 'index', pattern: 'ORGINVITES#*' },
  /** gsi1 `APPORGS#<id>`: an application's tenant organizations. */
  applicationOrganizations: { partition: 'index', pattern: 'APPORGS#*' },
  /** gsi1 and gsi2 `APPUSERS#<id>`: an application's users by address and by name. */
  applicationUsers: { partition: 'index', pattern: 'APPUSERS#*' },
} as const satisfies Record<string, { partition: 'table' | 'index'; pattern: string }>;

export type ItemFamily = keyof typeof keyFamilies;
