import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';

type Key = { pk: string; sk: string };
const id = (key: Key) => `${key.pk}\u0000${key.sk}`;

/**
 * Strongly consistent reads of several items in one BatchGetItem; the answer maps each
 * requested key to its item (or undefined). Unprocessed keys are retried.
 */
export async function batchGet(deps: Deps, wanted: Key[]): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  let pending: Key[] = wanted;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    if (attempt > 5) throw new Error('BatchGetItem left keys unprocessed');
    const answer = await deps.db.client.send(
      new BatchGetCommand({ RequestItems: { [deps.db.table]: { Keys: pending, ConsistentRead: true } } }),
    );
    for (const item of answer.Responses?.[deps.db.table] ?? []) found.set(id(item as Key), item);
    pending = (answer.UnprocessedKeys?.[deps.db.table]?.Keys as Key[] | undefined) ?? [];
  }
  return wanted.map((key) => found.get(id(key)));
}
