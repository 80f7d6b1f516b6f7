/**
 * OAuth items (docs/data-model.md, "OAuth grants and refresh tokens"; keys in keys.ts; shared/oauth/model.ts
 * says how the routes use them): authorization codes by hash, grants in their user's partition. Every read
 * checks expiry itself (TTL is best-effort).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { type ApplicationRecord, applicationRead } from './applications.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import { conditionFailureItem, isConditionFailure } from './errors.ts';
import { type CreateOutcome, putNew, queryAll, readNow } from './items.ts';
import { keys } from './keys.ts';
import { readRecords } from './reads.ts';

/** Scopes as granted (shared/oauth/model.ts `SCOPES` names them). */
const Scopes = z.array(z.string());

/**
 * What an authorization request binds, and the code issued for it carries on to the exchange
 * (docs/oauth.md, Token endpoint): the client, its redirect URI, the PKCE challenge, the resource
 * and its application.
 */
export const AuthorizationBinding = z.object({
  clientId: z.string(),
  clientName: z.string(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  resource: z.string(),
  applicationId: z.string(),
});

const AuthorizationCodeRecord = z.extend(AuthorizationBinding, {
  codeHash: z.string(),
  userId: z.string(),
  scopes: Scopes,
  grantId: z.string(),
  issuedAt: z.number(),
  expiresAt: z.number(),
  /** Set by the first exchange (conditional write): the code is spent. */
  usedAt: z.optional(z.number()),
});
/**
 * An authorization code (`OAUTHCODE#<sha256 of the code>`): single use, 10 minutes, bound to the
 * client, the redirect URI, the PKCE challenge and the resource. `grantId` is the grant the code
 * creates at its first exchange; a second exchange revokes that grant (OAuth 2.1 §4.1.3).
 */
export type AuthorizationCodeRecord = z.infer<typeof AuthorizationCodeRecord>;
const authorizationCodeRecord = decoder('authorization code', AuthorizationCodeRecord);

const GrantRecord = z.object({
  grantId: z.string(),
  userId: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  applicationId: z.string(),
  /**
   * The organization that owned the application at the exchange, so the MCP endpoint reads the
   * membership without reading the application first. Absent on grants made before it was written.
   */
  organizationId: z.optional(z.string()),
  resource: z.string(),
  scopes: Scopes,
  createdAt: z.number(),
  lastUsedAt: z.number(),
  /** Present once revoked (by the user, by a code replay, by a refresh replay): the grant is dead. */
  revokedAt: z.optional(z.number()),
});
/**
 * A grant, shown to the user as a connection (docs/oauth.md, Connections): one user, one client,
 * one application's resource, the scopes last granted. Revoking it ends its refresh tokens at once
 * and its access tokens at the MCP endpoint on their next call (which reads this record).
 */
export type GrantRecord = z.infer<typeof GrantRecord>;
const grantRecord = decoder('grant', GrantRecord);

const RefreshTokenRecord = z.object({
  tokenHash: z.string(),
  grantId: z.string(),
  userId: z.string(),
  clientId: z.string(),
  resource: z.string(),
  issuedAt: z.number(),
  expiresAt: z.number(),
  /** Set by the first rotation: the token is spent (replays are judged from this time). */
  rotatedAt: z.optional(z.number()),
});
/**
 * A refresh token (`REFRESH#<sha256 of the token>`): single use, rotated by a conditional
 * write that sets `rotatedAt`. Its successor is derived from it (shared/oauth/refresh.ts), so a
 * replay within the grace window of `rotatedAt` finds the same successor; a later replay revokes
 * the grant. `expiresAt` is also the TTL attribute.
 */
export type RefreshTokenRecord = z.infer<typeof RefreshTokenRecord>;
const refreshTokenRecord = decoder('refresh token', RefreshTokenRecord);

import { transactWrite } from './transact.ts';

/** A new authorization code; its hash is 256 bits of a random code, so `exists` never happens in practice. */
export const putAuthorizationCode = (db: Db, record: AuthorizationCodeRecord): Promise<CreateOutcome> =>
  putNew(db, { ...keys.authorizationCode(record.codeHash), ...record });

/** A new grant (a connection), in its user's partition. */
export const putGrant = (db: Db, grant: GrantRecord): Promise<CreateOutcome> =>
  putNew(db, { ...keys.grant(grant.userId, grant.grantId), ...grant });

/** The grant as last written (strongly consistent: a revocation holds on the very next call), or undefined. */
export async function readGrant(db: Db, userId: string, grantId: string): Promise<GrantRecord | undefined> {
  const item = await readNow(db, keys.grant(userId, grantId));
  return item && grantRecord(item);
}

/**
 * What the MCP endpoint checks on every call, strongly consistent (a revoked grant, a deleted
 * application hold on the very next call): the grant and the application in ONE BatchGetItem.
 */
export async function readGrantAndApplication(
  db: Db,
  caller: { userId: string; grantId: string; applicationId: string },
): Promise<{ grant?: GrantRecord; application?: ApplicationRecord }> {
  return readRecords(db, {
    grant: { key: keys.grant(caller.userId, caller.grantId), decode: grantRecord },
    application: applicationRead(caller.applicationId),
  });
}

/** The authorization code stored under `codeHash` (consistent: a spend is seen at once), or undefined. */
export async function readAuthorizationCode(
  db: Db,
  codeHash: string,
): Promise<AuthorizationCodeRecord | undefined> {
  const item = await readNow(db, keys.authorizationCode(codeHash));
  return item && authorizationCodeRecord(item);
}

/** The refresh token stored under `tokenHash` (consistent), expired ones included, or undefined. */
export async function readRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRecord | undefined> {
  const item = await readNow(db, keys.refreshToken(tokenHash));
  return item && refreshTokenRecord(item);
}

/**
 * Spends a code: ONE transaction sets its `usedAt` (only if unspent), creates its grant and the
 * grant's first refresh token. `spent`: the code was spent before (a replay or a parallel
 * exchange), nothing written. `writeId` marks our own spend, so an SDK resend of a transaction that
 * had landed is recognised as ours, not as a replay that would revoke our own grant.
 */
export async function spendCode(
  db: Db,
  spend: {
    codeHash: string;
    usedAt: number;
    writeId: string;
    grant: GrantRecord;
    refresh: RefreshTokenRecord;
  },
): Promise<'written' | 'spent' | 'conflict'> {
  const written = await transactWrite(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.authorizationCode(spend.codeHash),
        UpdateExpression: 'SET usedAt = :usedAt, spentBy = :writeId',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
        ExpressionAttributeValues: { ':usedAt': spend.usedAt, ':writeId': spend.writeId },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...keys.grant(spend.grant.userId, spend.grant.grantId), ...spend.grant },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: { ...keys.refreshToken(spend.refresh.tokenHash), ...spend.refresh },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  if (written.outcome !== 'failed') return written.outcome;
  return written.current[0]?.spentBy === spend.writeId ? 'written' : 'spent';
}

/**
 * Spends a code WITHOUT a grant (the exchange is refused: the application, the user's role or the
 * resource is gone), so it can never be exchanged later: one conditional UpdateItem. `spent`: it
 * was spent before; nothing to do either way.
 */
export async function burnCode(db: Db, codeHash: string, usedAt: number): Promise<'burnt' | 'spent'> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.authorizationCode(codeHash),
        UpdateExpression: 'SET usedAt = :usedAt',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
        ExpressionAttributeValues: { ':usedAt': usedAt },
      }),
    );
    return 'burnt';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return 'spent';
  }
}

/**
 * Rotates a refresh token (docs/oauth.md, "Refresh rotation") in ONE transaction: the old token is marked
 * rotated (kept at its first rotation time) only while it is unrotated or was rotated after `graceStart`; its
 * successor is written field by field with `if_not_exists`, so a replay in the grace window or a parallel
 * rotation finds the one successor unchanged (never a second live one, never a reset of one already rotated);
 * the grant takes its re-evaluated scopes and `lastUsedAt` only while live. `replayed`: the old token was
 * rotated before the grace window; `revoked`: the grant is revoked or gone. Nothing is written in either
 * case.
 */
export async function rotateRefreshToken(
  db: Db,
  rotation: {
    oldHash: string;
    now: number;
    graceStart: number;
    successor: RefreshTokenRecord;
    scopes: readonly string[];
  },
): Promise<'written' | 'replayed' | 'revoked' | 'conflict'> {
  const { successor } = rotation;
  const fields = ['tokenHash', 'grantId', 'userId', 'clientId', 'resource', 'issuedAt', 'expiresAt'] as const;
  const written = await transactWrite(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.refreshToken(rotation.oldHash),
        UpdateExpression: 'SET rotatedAt = if_not_exists(rotatedAt, :now)',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(rotatedAt) OR rotatedAt > :graceStart)',
        ExpressionAttributeValues: { ':now': rotation.now, ':graceStart': rotation.graceStart },
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: keys.refreshToken(successor.tokenHash),
        UpdateExpression: `SET ${fields.map((field) => `#${field} = if_not_exists(#${field}, :${field})`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(fields.map((field) => [`#${field}`, field])),
        ExpressionAttributeValues: Object.fromEntries(fields.map((field) => [`:${field}`, successor[field]])),
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: keys.grant(successor.userId, successor.grantId),
        UpdateExpression: 'SET scopes = :scopes, lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':scopes': rotation.scopes, ':now': rotation.now },
      },
    },
  ]);
  if (written.outcome !== 'failed') return written.outcome;
  return written.failed.includes(0) ? 'replayed' : 'revoked';
}

/**
 * Revokes a grant (sets `revokedAt`) unless it is gone or already revoked: `revoked` for this write
 * (an SDK resend of our own landed write included, by `writeId`), `unchanged` otherwise.
 */
export async function revokeGrant(
  db: Db,
  revocation: { userId: string; grantId: string; at: number; writeId: string },
): Promise<'revoked' | 'unchanged'> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.table,
        Key: keys.grant(revocation.userId, revocation.grantId),
        UpdateExpression: 'SET revokedAt = :at, revokedBy = :writeId',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':at': revocation.at, ':writeId': revocation.writeId },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'revoked';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return conditionFailureItem(error)?.revokedBy === revocation.writeId ? 'revoked' : 'unchanged';
  }
}

/** Every grant of a user, revoked ones included (one Query of the user's partition, consistent). */
export async function grantsOf(db: Db, userId: string): Promise<GrantRecord[]> {
  const items = await queryAll(db, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': keys.grantPrefix },
    ConsistentRead: true,
  });
  return items.map(grantRecord);
}
