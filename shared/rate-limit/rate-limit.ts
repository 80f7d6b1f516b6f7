import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { rateLimited } from '../errors.ts';
import { isConditionFailure } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import type { Limit } from './limits.ts';

export interface Window {
  key: { pk: string; sk: string };
  /** Seconds until the window closes (the `Retry-After` of a refusal). */
  retryAfter: number;
  expiresAt: number;
}

export function windowOf(limit: Limit, subject: string, nowMs: number): Window {
  const now = Math.floor(nowMs / 1000);
  const start = now - (now % limit.windowSeconds);
  const end = start + limit.windowSeconds;
  return { key: keys.rateWindow(limit.bucket, subject, start), retryAfter: end - now, expiresAt: end + 60 };
}

/**
 * The counter update as a TransactWriteItems entry: `ADD hits 1` only while below the limit,
 * so concurrent requests can never push a window past `max`.
 */
export function countHit(table: string, limit: Limit, window: Window) {
  return {
    TableName: table,
    Key: window.key,
    UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
    ConditionExpression: 'attribute_not_exists(hits) OR hits < :max',
    ExpressionAttributeValues: { ':one': 1, ':max': limit.max, ':expiresAt': window.expiresAt },
  };
}

/** Counts one hit of `subject` against `limit`, or throws 429 RATE_LIMITED with Retry-After. */
export async function consume(deps: Deps, limit: Limit, subject: string): Promise<void> {
  const window = windowOf(limit, subject, deps.clock.now());
  try {
    await deps.db.client.send(new UpdateCommand(countHit(deps.db.table, limit, window)));
  } catch (error) {
    if (isConditionFailure(error)) throw rateLimited(window.retryAfter);
    throw error;
  }
}
