/**
 * What the chaos clients' flows share (bench/chaos/clients.ts and the flows of its areas,
 * bench/chaos/oauth-flows.ts and bench/chaos/social-flows.ts): how an answer is read, and what a
 * virtual client lends the flows of another file.
 */
import type { Answer, ChaosHttp } from './http.ts';
import type { Ledger, SessionBelief, UserBelief } from './ledger.ts';

export type Outcome = 'ok' | 'refused' | 'ambiguous' | 'skipped';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many times a flow sends a request again while its answers say nothing (`isAmbiguous`). */
export const RESENDS = 3;

/**
 * `send`'s answer, sent again up to RESENDS times while it is ambiguous, as a persistent client does;
 * `pauseMs` × the try waited before each resend. The last answer (ambiguous if every one was).
 */
export async function sendUntilTold(send: () => Promise<Answer>, pauseMs = 0): Promise<Answer> {
  let answer = await send();
  for (let tries = 1; isAmbiguous(answer) && tries <= RESENDS; tries++) {
    if (pauseMs > 0) await sleep(pauseMs * tries);
    answer = await send();
  }
  return answer;
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

/** What an answer said, in a few words: its status and code, or an HTML page's error line. */
export function said(answer: Answer): string {
  const page = /<p class="error">([^<]*)<\/p>/.exec(answer.text)?.[1];
  return `${answer.status} ${answer.code ?? page ?? ''}`.trim();
}

/** An end user of the client's application: its address, and what the client was told of its account. */
export interface EndUser {
  email: string;
  belief?: UserBelief;
  /** How many starts this address has made in its scope (3 per 10 minutes: docs/security.md). */
  starts: number;
}

/** A browser: the cookies the service set (`name` → `value`), sent back with each of its requests. */
export class Browser {
  readonly cookies = new Map<string, string>();

  /** Keeps the cookies an answer sets (a `Max-Age=0` or empty one is cleared). */
  keep(answer: Answer): void {
    const set = answer.headers['set-cookie'];
    for (const cookie of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /;\s*max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The `cookie` header of this browser (empty when it holds none), `extra` pairs added. */
  header(extra: Record<string, string> = {}): Record<string, string> {
    const pairs = [...this.cookies, ...Object.entries(extra)].map(([name, value]) => `${name}=${value}`);
    return pairs.length === 0 ? {} : { cookie: pairs.join('; ') };
  }
}

/** A form body, as a browser posts it. */
export const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  contentType: { 'content-type': 'application/x-www-form-urlencoded' },
});

/**
 * What a virtual client lends the flows of another file: its identity, its calls, its world (the
 * owner and application), its end users, and the bookkeeping of the sessions it holds.
 */
export interface ClientKit {
  readonly id: number;
  readonly ledger: Ledger;
  readonly random: () => number;
  readonly inbox: Inbox;
  /** The service's `ISSUER` and `SERVICE_NAME` (its cookies' prefix). */
  readonly issuer: string;
  readonly serviceName: string;
  call(
    flow: string,
    ...args: Parameters<ChaosHttp['call']> extends [number, string, ...infer R] ? R : never
  ): Promise<Answer>;
  /** A unique name (`<prefix> <client>-<serial>`), and a unique number. */
  name(prefix: string): string;
  serial(): number;
  pick<T>(items: readonly T[]): T | undefined;
  readonly owner: { email: string; userId: string; token: string; organizationId: string };
  readonly application: { id: string; publicKey: string; secretKey: string; socialKey: string };
  readonly endUsers: EndUser[];
  /** A user of the application told to exist and told enabled, if any (`filter` narrows). */
  managedUser(filter?: (user: UserBelief) => boolean): UserBelief | undefined;
  /** A session told live (signed in by any means), held with its token for the other flows. */
  hold(session: SessionBelief, token: string): void;
  /** Sessions a request told ended (their tokens probed after the flow) or left unknown. */
  ended(predicate: (session: SessionBelief) => boolean, how: 'ended' | 'unknown'): void;
  /** A probe run after the flow (and after every later flow while its answer is ambiguous). */
  probeLater(probe: () => Promise<'done' | 'again'>): void;
  /**
   * The same request again after an ambiguous answer (docs/reliability.md): it must answer as the
   * first success would have (`success`), or ambiguously again.
   */
  again(
    flow: string,
    first: Answer,
    send: () => Promise<Answer>,
    success: number[],
    onSuccess: (answer: Answer) => void,
  ): Promise<Outcome>;
}
