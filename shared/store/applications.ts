import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { apiKeyEntries, revokedWrite } from './api-keys.ts';
import { auditWrites, type StoredAuditEntry } from './audit.ts';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { type CreateOutcome, putNew, queryUpTo, readNow } from './items.ts';
import { keys } from './keys.ts';
import type { Read } from './reads.ts';
import { transactWrite } from './transact.ts';

const ApplicationRecord = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  logoUrl: z.optional(z.nullable(z.string())),
  branding: z.optional(
    z.object({ primaryColor: z.optional(z.string()), backgroundColor: z.optional(z.string()) }),
  ),
  /** The configuration document as stored; shared/tenancy/configuration-document.ts reads it, its older forms too. */
  config: z.optional(z.record(z.string(), z.unknown())),
  origin: z.optional(z.string()),
  /** Moved by every configuration write; absent before the first. */
  configVersion: z.optional(z.number()),
  createdAt: z.string(),
  userCount: z.optional(z.number()),
  organizationCount: z.optional(z.number()),
});
/** An application item (`APP#<id>` / `APP`) as the repositories return it. */
export type ApplicationRecord = z.infer<typeof ApplicationRecord>;
export const applicationRecord = decoder('application', ApplicationRecord);

/** The read of an application item, for a batch (strongly consistent, as every batch read is). */
export const applicationRead = (applicationId: string): Read<ApplicationRecord> => ({
  key: keys.application(applicationId),
  decode: applicationRecord,
});

/** One GetItem (eventually consistent). */
export async function readApplication(db: Db, applicationId: string): Promise<ApplicationRecord | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.application(applicationId) }),
  );
  return Item && applicationRecord(Item);
}

/** One strongly consistent GetItem: management reads see their own writes. */
export async function readApplicationNow(
  db: Db,
  applicationId: string,
): Promise<ApplicationRecord | undefined> {
  const item = await readNow(db, keys.application(applicationId));
  return item && applicationRecord(item);
}

interface StoredApplication {
  readonly id: string;
  readonly organizationId: string;
}

const applicationItem = (app: StoredApplication): Item => ({
  ...keys.application(app.id),
  ...keys.organizationApplication(app.organizationId, app.id),
  type: 'application',
  keyCount: 0,
  ...(app as object),
});

/** Stores an application record outside any organization's counter (test fixtures and the bench). */
export async function putApplication<Record extends StoredApplication>(
  db: Db,
  app: Record,
): Promise<CreateOutcome> {
  return putNew(db, applicationItem(app));
}

/**
 * The organization's `plan` attribute as the caller read it (null: none, the free plan), and the
 * limit it gives (null: none). The condition is on the attribute as stored, whatever it holds.
 */
export interface PlanCap {
  plan: string | null;
  limit: number | null;
}

export type CreateApplicationOutcome =
  | { outcome: 'created' }
  | { outcome: 'missing' }
  | { outcome: 'overLimit' }
  | { outcome: 'conflict' };

/**
 * Creates the application and counts it on its organization in ONE TransactWriteItems: the
 * counter's condition (below the plan's limit, on the plan that was read) is what keeps the cap
 * under parallel creates (docs/api.md, Organizations).
 */
export async function createApplication<Record extends StoredApplication>(
  db: Db,
  app: Record,
  cap: PlanCap,
  audit: StoredAuditEntry,
): Promise<CreateApplicationOutcome> {
  const underCap =
    cap.limit === null ? '' : ' AND (attribute_not_exists(applicationCount) OR applicationCount < :limit)';
  // `free` is also the plan of an item that names none.
  const samePlan = cap.plan === null ? 'attribute_not_exists(#plan)' : '#plan = :plan';
  const written = await transactWrite(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.organization(app.organizationId),
        UpdateExpression: 'SET applicationCount = if_not_exists(applicationCount, :zero) + :one',
        ConditionExpression: `attribute_exists(pk) AND ${samePlan}${underCap}`,
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':one': 1,
          ...(cap.plan === null ? {} : { ':plan': cap.plan }),
          ...(cap.limit === null ? {} : { ':limit': cap.limit }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Put: {
        TableName: db.table,
        Item: applicationItem(app),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome === 'written') return { outcome: 'created' };
  if (written.outcome === 'conflict') return written;
  const organization = written.current[0];
  if (!organization) return { outcome: 'missing' };
  // An operator changed the plan between the read and the write: the caller reads it again.
  if ((organization.plan ?? null) !== cap.plan) return { outcome: 'conflict' };
  if (written.failed.includes(0)) return { outcome: 'overLimit' };
  throw new Error('a new application id collided with a stored one');
}

/** An organization's applications (gsi1, eventually consistent), oldest first, one page. */
export async function applicationsOf(
  db: Db,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<ApplicationRecord[]> {
  // Offsets are small (a plan holds at most 25; enterprise lists page through): read up to the page's end.
  const items = await queryUpTo(
    db,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :org',
      ExpressionAttributeValues: { ':org': keys.organizationApplication(organizationId, '').gsi1pk },
    },
    page.offset + page.limit,
  );
  return items.slice(page.offset, page.offset + page.limit).map(applicationRecord);
}

export type UpdateOutcome = 'updated' | 'changed' | 'conflict';

/**
 * Sets (null: removes) some of an application's own fields while its settings are still `expected`
 * (dotted paths to their values as read; null: absent), and appends the change's audit entry, in ONE
 * TransactWriteItems. `changed`: the application is gone or its settings moved, nothing written.
 */
export async function updateApplication(
  db: Db,
  applicationId: string,
  fields: Record<string, unknown>,
  expected: Record<string, unknown>,
  audit: StoredAuditEntry,
): Promise<UpdateOutcome> {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined);
  const set = entries.filter(([, value]) => value !== null);
  const remove = entries.filter(([, value]) => value === null);
  const expression = [
    ...(set.length > 0 ? [`SET ${set.map(([name]) => `#${name} = :${name}`).join(', ')}`] : []),
    ...(remove.length > 0 ? [`REMOVE ${remove.map(([name]) => `#${name}`).join(', ')}`] : []),
  ].join(' ');
  const names: Record<string, string> = Object.fromEntries(entries.map(([name]) => [`#${name}`, name]));
  const values: Record<string, unknown> = Object.fromEntries(set.map(([name, value]) => [`:${name}`, value]));
  const conditions = ['attribute_exists(pk)'];
  Object.entries(expected).forEach(([path, value], index) => {
    const attribute = path
      .split('.')
      .map((part) => {
        names[`#${part}`] = part;
        return `#${part}`;
      })
      .join('.');
    // None: absent, or stored as NULL (an application made without a logo holds `logoUrl: null`).
    if (value === null) {
      conditions.push(`(attribute_not_exists(${attribute}) OR attribute_type(${attribute}, :null))`);
      values[':null'] = 'NULL';
    } else {
      conditions.push(`${attribute} = :was${index}`);
      values[`:was${index}`] = value;
    }
  });
  const written = await transactWrite(db, [
    {
      Update: {
        TableName: db.table,
        Key: keys.application(applicationId),
        UpdateExpression: expression,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      },
    },
    ...auditWrites(db.table, audit),
  ]);
  if (written.outcome === 'written') return 'updated';
  return written.outcome === 'conflict' ? 'conflict' : 'changed';
}

export type DeleteApplicationOutcome = 'deleted' | 'missing' | 'raced' | 'conflict';

/** What a delete was decided from: the application's configuration version and the resources it holds. */
export interface ApplicationToDelete {
  id: string;
  organizationId: string;
  configurationVersion: number;
  resources: readonly string[];
}

/**
 * Deletes the application, uncounts it on its organization, revokes every active key, frees its
 * OAuth resources and ends its running impersonations (`ending`: shared/tenancy/impersonation.ts
 * `endingsOf`) in ONE TransactWriteItems, conditioned on the key count and the configuration
 * version it read (a key created or a resource claimed meanwhile fails it: read again and try
 * again). Keys stop at once: their items say revoked; sessions stop because every session lookup
 * reads the application (shared/sessions/resolve.ts).
 */
export async function deleteApplication(
  db: Db,
  app: ApplicationToDelete,
  now: string,
  audit: StoredAuditEntry,
  ending: TransactItem[] = [],
): Promise<DeleteApplicationOutcome> {
  const entries = await apiKeyEntries(db, app.id);
  const active = entries.filter((entry) => entry.revokedAt === undefined);
  const revoke = (key: { pk: string; sk: string }) => revokedWrite(db.table, key, new Date(now));
  const sameVersion =
    app.configurationVersion === 0
      ? '(attribute_not_exists(configVersion) OR configVersion = :version)'
      : 'configVersion = :version';
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: db.table,
        Key: keys.application(app.id),
        ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(keyCount) OR keyCount = :keys) AND ${sameVersion}`,
        ExpressionAttributeValues: { ':keys': active.length, ':version': app.configurationVersion },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Update: {
        TableName: db.table,
        Key: keys.organization(app.organizationId),
        UpdateExpression: 'SET applicationCount = applicationCount - :one',
        ConditionExpression: 'applicationCount > :zero',
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      },
    },
    ...active.flatMap((entry) => [
      revoke(keys.apiKey(entry.keyHash)),
      revoke(keys.apiKeyEntry(app.id, entry.id)),
    ]),
    ...app.resources.map((resource) => ({
      Delete: {
        TableName: db.table,
        Key: keys.resource(resource),
        ConditionExpression: 'attribute_not_exists(pk) OR applicationId = :app',
        ExpressionAttributeValues: { ':app': app.id },
      },
    })),
    ...auditWrites(db.table, audit),
  ];
  const written = await transactWrite(db, [...items, ...ending]);
  if (written.outcome === 'written' || written.outcome === 'conflict') {
    return written.outcome === 'written' ? 'deleted' : 'conflict';
  }
  // An impersonation it ends was ended meanwhile: read again.
  if (written.failed.some((index) => index >= items.length)) return 'raced';
  if (!written.failed.includes(0)) {
    throw new Error(
      `the organization of ${app.id} does not count it, or another application holds its resource`,
    );
  }
  return written.current[0] ? 'raced' : 'missing';
}
