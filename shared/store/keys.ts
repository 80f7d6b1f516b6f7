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
  session: (userId: string, sessionId: string) => ({ pk: `USER#${userId}`, sk: `SESSION#${sessionId}` }),
  sessionPrefix: 'SESSION#',
  organization: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'ORG' }),
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
  /** Never written: `/status` reads it to prove the table answers. */
  health: { pk: 'HEALTH', sk: 'HEALTH' },
} as const;
