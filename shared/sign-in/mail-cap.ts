import type { Deps } from '../deps.ts';
import { rateLimited } from '../errors.ts';
import {
  mailCapRead as counterRead,
  giveBackMailSlot,
  type MailCapCounter,
  takeMailSlot,
} from '../store/mail-cap.ts';

/**
 * The global cap on sign-in emails (docs/security.md, "Mail reputation"): at most `MAX_CODE_EMAILS_PER_HOUR`
 * per clock hour (UTC) for the whole service, whatever the IPs and addresses, so a distributed flood that
 * keeps within every per-IP and per-mailbox limit still cannot burn the SES account's reputation or quota. A
 * fixed hour, not a sliding one: one counter item per hour, taken by a conditional ADD. The price: around the
 * turn of an hour, up to twice the cap can go out within 60 minutes.
 */
const HOUR_MS = 3_600_000;

export const hourOf = (now: number) => Math.floor(now / HOUR_MS);

/** The read of the hour's counter, with start's other items (none when there is no cap). */
export function mailCapRead(deps: Deps, now: number) {
  return deps.config.MAX_CODE_EMAILS_PER_HOUR === undefined ? undefined : counterRead(hourOf(now));
}

/**
 * 429 RATE_LIMITED until the next hour, when the counter starts again at zero; counted, since a
 * full cap refuses sign-in email to everyone (the `MailCapReached` alarm, docs/operations.md).
 */
function capReached(deps: Deps, now: number) {
  deps.metrics.count('MailCapReached');
  return rateLimited(((hourOf(now) + 1) * HOUR_MS - now) / 1000, { reason: 'mail_cap' });
}

/** Refuses at once when the counter as read is full: a flood beyond the cap writes nothing. */
export function checkMailCap(deps: Deps, now: number, counter: MailCapCounter | undefined): void {
  const max = deps.config.MAX_CODE_EMAILS_PER_HOUR;
  if (max !== undefined && Number(counter?.sent ?? 0) >= max) throw capReached(deps, now);
}

/** Takes one email of the hour, or throws 429 RATE_LIMITED (`details.reason: 'mail_cap'`). */
export async function takeMailCap(deps: Deps, now: number): Promise<void> {
  const max = deps.config.MAX_CODE_EMAILS_PER_HOUR;
  if (max === undefined) return;
  const hour = hourOf(now);
  // The item outlives its hour by one, then TTL removes it (TTL is best-effort, docs/data-model.md:
  // expiry is checked by key).
  const expiresAt = ((hour + 2) * HOUR_MS) / 1000;
  const slot = await takeMailSlot(deps.db, { hour, max, expiresAt });
  if (slot.outcome === 'full') throw capReached(deps, now);
}

/** Gives the email of `now`'s hour back: it was not sent after all. */
export async function giveBackMailCap(deps: Deps, now: number): Promise<void> {
  if (deps.config.MAX_CODE_EMAILS_PER_HOUR === undefined) return;
  await giveBackMailSlot(deps.db, hourOf(now));
}
