import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { type ApplicationRecord, applicationRecord } from './applications.ts';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { keys } from './keys.ts';
import { transactWrite } from './transact.ts';

const ResourceRecord = z.object({ resource: z.string(), applicationId: z.string() });
/** A resource item (`RESOURCE#<uri>`): the one application that registered the OAuth resource. */
export type ResourceRecord = z.infer<typeof ResourceRecord>;
const resourceRecord = decoder('resource', ResourceRecord);

/** A configuration change of one application, and what it was decided from. */
export interface ConfigurationWrite {
  applicationId: string;
  /** What the write was decided from: it commits only while the application item still holds it. */
  read: { version: number; origin: string | null };
  /** The `config` map and the origin to store (null: none). */
  config: Record<string, unknown>;
  origin: string | null;
  /** OAuth resources to claim for the application, and those it gives up. */
  claim: readonly string[];
  release: readonly string[];
  /**
   * When the origin becomes known or unknown: every active key of the application, whose
   * `originKnown` flag follows it (shared/tenancy/origin-learning.ts). The write is then also
   * conditioned on the application holding exactly these keys.
   */
  keyFlags?: { keyHashes: readonly string[]; originKnown: boolean };
  /** The audit entries of the change (its settings, its social sign-in), appended in the same transaction. */
  audit?: readonly StoredAuditEntry[];
}

export type ConfigurationOutcome =
  | { outcome: 'written' }
  | { outcome: 'missing' }
  /** Another application holds `resource`. */
  | { outcome: 'taken'; resource: string }
  /** The application changed since it was read: `current` is how it is now, when DynamoDB said. */
  | { outcome: 'stale'; current?: ApplicationRecord }
  | { outcome: 'conflict' };

/**
 * Writes the configuration, claims and releases its resource items, and sets or clears the keys'
 * origin flags, in ONE TransactWriteItems. The application Update is conditioned on the version
 * and origin it was decided from, so concurrent writes (and origin learning) cannot lose each
 * other's changes or leave a resource item behind; each claim is a Put conditioned on the resource
 * being free (or already this application's), so two applications never hold the same resource.
 */
export async function writeConfiguration(db: Db, write: ConfigurationWrite): Promise<ConfigurationOutcome> {
  const { applicationId, read, origin, claim, release, keyFlags } = write;
  const conditions = [
    'attribute_exists(pk)',
    read.version === 0 ? '(attribute_not_exists(#version) OR #version = :read)' : '#version = :read',
    read.origin === null ? 'attribute_not_exists(#origin)' : '#origin = :readOrigin',
  ];
  if (keyFlags) {
    conditions.push(
      keyFlags.keyHashes.length === 0
        ? '(attribute_not_exists(keyCount) OR keyCount = :keys)'
        : 'keyCount = :keys',
    );
  }
  const ownedOrFree = 'attribute_not_exists(pk) OR applicationId = :app';
  const items: TransactItem[] = [
    {
      Update: {
        TableName: db.table,
        Key: keys.application(applicationId),
        UpdateExpression:
          origin === null
            ? 'SET #config = :config, #version = :next REMOVE #origin'
            : 'SET #config = :config, #version = :next, #origin = :origin',
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#config': 'config', '#version': 'configVersion', '#origin': 'origin' },
        ExpressionAttributeValues: {
          ':config': write.config,
          ':read': read.version,
          ':next': read.version + 1,
          ...(origin === null ? {} : { ':origin': origin }),
          ...(read.origin === null ? {} : { ':readOrigin': read.origin }),
          ...(keyFlags ? { ':keys': keyFlags.keyHashes.length } : {}),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    ...claim.map(
      (resource): TransactItem => ({
        Put: {
          TableName: db.table,
          Item: { ...keys.resource(resource), type: 'resource', resource, applicationId },
          ConditionExpression: ownedOrFree,
          ExpressionAttributeValues: { ':app': applicationId },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      }),
    ),
    ...release.map(
      (resource): TransactItem => ({
        Delete: {
          TableName: db.table,
          Key: keys.resource(resource),
          ConditionExpression: ownedOrFree,
          ExpressionAttributeValues: { ':app': applicationId },
        },
      }),
    ),
    ...(keyFlags?.keyHashes ?? []).map(
      (keyHash): TransactItem => ({
        Update: {
          TableName: db.table,
          Key: keys.apiKey(keyHash),
          UpdateExpression: keyFlags?.originKnown ? 'SET originKnown = :yes' : 'REMOVE originKnown',
          ConditionExpression: 'attribute_exists(pk)',
          ...(keyFlags?.originKnown ? { ExpressionAttributeValues: { ':yes': true } } : {}),
        },
      }),
    ),
    // Last, so a failed condition's index still names a claim (1 to claim.length) as before.
    ...(write.audit ?? []).flatMap((entry) => auditWrites(db.table, entry)),
  ];
  const written = await transactWrite(db, items);
  if (written.outcome !== 'failed') return written;
  for (const index of written.failed) {
    const holder = index >= 1 && index <= claim.length ? written.current[index]?.applicationId : undefined;
    if (holder !== undefined && holder !== applicationId) {
      return { outcome: 'taken', resource: claim[index - 1] as string };
    }
  }
  if (written.failed.includes(0)) {
    const current = written.current[0];
    return current ? { outcome: 'stale', current: applicationRecord(current) } : { outcome: 'missing' };
  }
  // A release or a key changed under us (the key count held): read again and decide again.
  return { outcome: 'stale' };
}

/** One strongly consistent GetItem: the resource item, naming the application that registered it. */
export async function readResource(db: Db, uri: string): Promise<ResourceRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.resource(uri), ConsistentRead: true }),
  );
  return Item && resourceRecord(Item);
}

export type RecordOriginOutcome = 'noted' | 'gone' | 'conflict';

/**
 * The first origin wins (docs/api.md, "Origin learning"). ONE TransactWriteItems: the application's `origin`
 * is set only where it has none (`if_not_exists`: DynamoDB applies writes to one item one after the other, so
 * of two first requests the second finds the first's origin and keeps it), and the key is marked
 * `originKnown`, so its later requests write nothing. `gone`: the application was deleted or the key revoked
 * meanwhile, nothing written.
 */
export async function recordOrigin(
  db: Db,
  key: { applicationId: string; keyHash: string },
  origin: string,
  audit: StoredAuditEntry,
): Promise<RecordOriginOutcome> {
  const record = (learns: boolean) =>
    transactWrite(db, [
      {
        Update: {
          TableName: db.table,
          Key: keys.application(key.applicationId),
          UpdateExpression: 'SET #origin = if_not_exists(#origin, :origin)',
          // Only the request that sets the origin records it; a later one only marks its key.
          ConditionExpression: learns
            ? 'attribute_exists(pk) AND attribute_not_exists(#origin)'
            : 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#origin': 'origin' },
          ExpressionAttributeValues: { ':origin': origin },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Update: {
          TableName: db.table,
          Key: keys.apiKey(key.keyHash),
          UpdateExpression: 'SET originKnown = :yes',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':yes': true },
        },
      },
      ...(learns ? auditWrites(db.table, audit) : []),
    ]);
  let written = await record(true);
  // Another request (or the owner) set the origin first: this key only learns it is known.
  if (written.outcome === 'failed' && written.failed.includes(0) && written.current[0])
    written = await record(false);
  if (written.outcome === 'written') return 'noted';
  return written.outcome === 'failed' ? 'gone' : 'conflict';
}
