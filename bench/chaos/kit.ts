/** What the chaos clients' flows share (bench/chaos/clients.ts): how an answer is read, and who the users are. */
import type { Answer } from './http.ts';
import type { UserBelief } from './ledger.ts';

export type Outcome = 'ok' | 'refused' | 'ambiguous' | 'skipped';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The claims of a token (its payload, unverified: the client only reads them). */
// biome-ignore lint/suspicious/noExplicitAny: claims of session and access tokens alike.
export function claimsOf(token: string): Record<string, any> {
  const [, payload = ''] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** An answer that says nothing of what happened: a 5xx, a network error, a 429, or any answer to a resend after a lost one. */
export const isAmbiguous = (answer: Answer) =>
  answer.status === 0 ||
  answer.status >= 500 ||
  answer.status === 429 ||
  (answer.lostBefore === true && answer.status >= 400);

/** Where the clients read sign-in codes: the messages the service's mailer had accepted. */
export interface Inbox {
  /** The code of the newest message to `email` since the last take, taken. */
  take(email: string): string | undefined;
}

/** An end user of the client's application: its address, and what the client was told of its account. */
export interface EndUser {
  email: string;
  belief?: UserBelief;
  /** How many starts this address has made in its scope (3 per 10 minutes: docs/security.md). */
  starts: number;
}
