import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { mailboxOf } from '../identity/email.ts';
import { type Limit, limits } from '../rate-limit/limits.ts';
import {
  type RateLog,
  rateLogFrom,
  rateLogRead,
  recordHit,
  refundHit,
  withState,
} from '../rate-limit/rate-limit.ts';
import type { Hit, LogState } from '../store/rate-logs.ts';

/**
 * The limits of `start` (docs/security.md, "Rate limits"), each an exact window of its own: 5 a minute per
 * IP; 3 per 10 minutes per recipient mailbox in the request's scope, so the platform's starts never lock an
 * address out of an application; and 10 per 10 minutes per mailbox across every scope, so many applications
 * cannot flood one inbox. A mailbox is the normalised address (`+tag` aliases and Gmail dots folded), hashed.
 * All three are read in start's one BatchGetItem and written in its one TransactWriteItems.
 */
export interface StartLogs {
  ip: RateLog;
  recipient: RateLog;
  mailbox: RateLog;
}
type LogName = keyof StartLogs;
const LOG_NAMES: readonly LogName[] = ['ip', 'recipient', 'mailbox'];

export interface StartSubject {
  sourceIp: string;
  scope: string;
  email: string;
}

function subjects(input: StartSubject): Record<LogName, [Limit, string]> {
  const mailbox = sha256Hex(mailboxOf(input.email));
  return {
    ip: [limits.startPerIp, input.sourceIp],
    recipient: [limits.startPerRecipient, `${input.scope}#${mailbox}`],
    mailbox: [limits.startPerMailbox, mailbox],
  };
}

/** The reads of the three logs, by name. */
export function startLogReads(input: StartSubject) {
  const { ip, recipient, mailbox } = subjects(input);
  return { ip: rateLogRead(...ip), recipient: rateLogRead(...recipient), mailbox: rateLogRead(...mailbox) };
}

/** The three logs as read (an absent item: no hits yet). */
export function startLogs(input: StartSubject, found: { [Name in LogName]?: LogState }): StartLogs {
  const { ip, recipient, mailbox } = subjects(input);
  return {
    ip: rateLogFrom(...ip, found.ip),
    recipient: rateLogFrom(...recipient, found.recipient),
    mailbox: rateLogFrom(...mailbox, found.mailbox),
  };
}

const waitOf = (error: AppError) => Number(error.details?.retryAfter ?? 0);

/**
 * The request's one hit in each log, or 429 RATE_LIMITED with the longest wait of the limits that refuse, so
 * that Retry-After holds for all of them, not just the first one checked.
 */
export function startHits(table: string, logs: StartLogs, hit: Hit) {
  const hits: Partial<Record<LogName, ReturnType<typeof recordHit>>> = {};
  let refusal: AppError | undefined;
  for (const name of LOG_NAMES) {
    try {
      hits[name] = recordHit(table, logs[name], hit);
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'rateLimited') throw error;
      if (!refusal || waitOf(error) > waitOf(refusal)) refusal = error;
    }
  }
  if (refusal) throw refusal;
  return hits as Record<LogName, ReturnType<typeof recordHit>>;
}

/** The logs after a lost race: each log the transaction found changed, as it is now. */
export function afterRace(logs: StartLogs, raced: { [Name in LogName]?: { current: LogState } }) {
  const now = { ...logs };
  for (const name of LOG_NAMES) {
    const changed = raced[name];
    if (changed) now[name] = withState(logs[name], changed.current);
  }
  return now;
}

/** Gives the recipient's hits back, in its scope and across scopes: the start did not happen after all. */
export async function refundRecipient(deps: Deps, logs: StartLogs, hit: Hit): Promise<void> {
  await refundHit(deps, logs.recipient, hit);
  await refundHit(deps, logs.mailbox, hit);
}
