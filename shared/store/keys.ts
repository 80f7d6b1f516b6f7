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
   * A stored profile image, by its id (owner and bytes, shared/users/image.ts): a small head, read
   * alone to revalidate, and the bytes in parts (one item holds at most 400 KB).
   */
  image: (imageId: string) => `IMAGE#${imageId}`,
  imageHead: (imageId: string) => ({ pk: `IMAGE#${imageId}`, sk: 'HEAD' }),
  imagePart: (imageId: string, index: number) => ({ pk: `IMAGE#${imageId}`, sk: `PART#${index}` }),
  device: (deviceCodeHash: string) => ({ pk: `DEVICE#${deviceCodeHash}`, sk: 'DEVICE' }),
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
   * The sign-in emails the whole service sent in one clock hour (issue 9, item 4), `hour` counted in
   * hours since the epoch: a counter, not a log, since the cap is in the thousands.
   */
  mailCap: (hour: number) => ({ pk: `RATE#mail-hour#${hour}`, sk: 'COUNT' }),
  /**
   * An application's statistics (docs/data-model.md, Statistics), one partition per application:
   * new users and sign-ins of one UTC day (sorted by date, so a range is one Query), the sessions
   * counted under one UTC day of issue or refresh (with per-minute counts), and the user total.
   */
  statsDay: (applicationId: string, date: string) => ({ pk: `STATS#${applicationId}`, sk: `DAY#${date}` }),
  statsSessions: (applicationId: string, date: string) => ({
    pk: `STATS#${applicationId}`,
    sk: `SESSIONS#${date}`,
  }),
  /**
   * An impersonation record (SPEC §3.3), kept after it ends or lapses (no `expiresAt`: never TTL-deleted).
   */
  impersonation: (impersonationId: string) => ({ pk: `IMP#${impersonationId}`, sk: 'IMP' }),
  /**
   * An application's append-only audit trail: one entry per event, sorted by time, and beside them
   * the trail's counter, whose sort key (`TOTAL` > `ENTRY#...`) comes first in a descending Query.
   */
  audit: (applicationId: string) => `AUDIT#${applicationId}`,
  auditEntry: (applicationId: string, at: string, entryId: string) => ({
    pk: `AUDIT#${applicationId}`,
    sk: `ENTRY#${at}#${entryId}`,
  }),
  auditTotal: (applicationId: string) => ({ pk: `AUDIT#${applicationId}`, sk: 'TOTAL' }),
  /** Never written: `/status` reads it to prove the table answers. */
  health: { pk: 'HEALTH', sk: 'HEALTH' },
} as const;
