/**
 * The chaos clients' HTTP: one call to a route of the route table, retried as docs/api.md tells a
 * client to (429 RATE_LIMITED with Retry-After, 503 with Retry-After, a network error), every
 * attempt recorded with its route, status, code, request id and time.
 */
import { type LoopbackResponse, send } from '../../fixtures/loopback-client.ts';
import { type RouteId, routes } from '../../shared/routes.ts';

export type Phase = 'faults' | 'calm' | 'final' | 'setup';

/** One attempt as the client saw it. */
export interface Attempt {
  route: RouteId;
  status: number;
  /** The envelope's `error.code` (or an OAuth `error`), if any. */
  code?: string;
  requestId?: string;
  retryAfter?: string;
  ms: number;
  phase: Phase;
  /** The client and the flow it was in. */
  client: number;
  flow: string;
}

/** An answer: the last attempt's, or `status: 0` when every attempt met a network error. */
// biome-ignore lint/suspicious/noExplicitAny: the clients read answers field by field, as tests do.
export interface Answer<T = any> {
  status: number;
  code?: string;
  body: T;
  headers: LoopbackResponse['headers'];
  requestId?: string;
  /** Attempts made, retries included. */
  attempts: number;
  /** The request ids of every attempt (what a report names for a violation). */
  requestIds: string[];
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Retry 429 RATE_LIMITED and 503 as docs/api.md says (default); false: the flow decides. */
  retry?: boolean;
}

/** Waits longer than this are not waited: the flow gives up and says so (a rate limit of minutes). */
const MAX_WAIT_MS = 5_000;
const MAX_ATTEMPTS = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ChaosHttp {
  readonly attempts: Attempt[] = [];
  phase: Phase = 'setup';
  /** Waits the clients skipped (Retry-After beyond MAX_WAIT_MS). */
  gaveUp = 0;
  /** Requests sent again after a 429, a 503 or a network error. */
  retries = 0;
  #nextIp = 0;

  constructor(
    readonly baseUrl: string,
    /** The second octet of this run's loopback source addresses. */
    private readonly ipBlock: number,
  ) {}

  /** A loopback source address no other request of the run used: every request is its own client IP. */
  #ip(): string {
    const n = (this.#nextIp++ % 0xfffe) + 1;
    return `127.${this.ipBlock}.${(n >> 8) & 0xff}.${n & 0xff || 1}`;
  }

  // biome-ignore lint/suspicious/noExplicitAny: as Answer.
  async call<T = any>(
    client: number,
    flow: string,
    route: RouteId,
    params: Record<string, string>,
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    const spec = routes[route];
    const path = spec.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`no ${name} for ${route}`);
      return encodeURIComponent(value);
    });
    const requestIds: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let response: LoopbackResponse<unknown> | undefined;
      try {
        response = await send(this.baseUrl, spec.method, path, {
          ...(options.body === undefined ? {} : { body: options.body }),
          ...(options.headers ? { headers: options.headers } : {}),
          ip: this.#ip(),
        });
      } catch {
        response = undefined;
      }
      const ms = performance.now() - started;
      const status = response?.status ?? 0;
      const code = errorCodeOf(response?.body);
      const requestId = header(response?.headers, 'x-request-id');
      const retryAfter = header(response?.headers, 'retry-after');
      if (requestId) requestIds.push(requestId);
      this.attempts.push({
        route,
        status,
        ...(code ? { code } : {}),
        ...(requestId ? { requestId } : {}),
        ...(retryAfter ? { retryAfter } : {}),
        ms,
        phase: this.phase,
        client,
        flow,
      });
      const wait = options.retry === false ? null : retryWait(status, code, retryAfter, attempt);
      if (wait === null || attempt >= MAX_ATTEMPTS) {
        return {
          status,
          ...(code ? { code } : {}),
          body: response?.body as T,
          headers: response?.headers ?? {},
          ...(requestId ? { requestId } : {}),
          attempts: attempt,
          requestIds,
        };
      }
      if (wait > MAX_WAIT_MS) {
        this.gaveUp++;
        return {
          status,
          ...(code ? { code } : {}),
          body: response?.body as T,
          headers: response?.headers ?? {},
          ...(requestId ? { requestId } : {}),
          attempts: attempt,
          requestIds,
        };
      }
      await sleep(wait);
      this.retries++;
    }
  }
}

/** docs/api.md: what a client retries, and after how long (ms); null: this answer is final. */
function retryWait(
  status: number,
  code: string | undefined,
  retryAfter: string | undefined,
  attempt: number,
): number | null {
  // A network error: back off and send again.
  if (status === 0) return 100 * 2 ** attempt;
  const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
  if (status === 503 && Number.isFinite(seconds)) return seconds * 1000;
  if (status === 429 && code === 'RATE_LIMITED' && Number.isFinite(seconds)) return seconds * 1000;
  return null;
}

function header(headers: LoopbackResponse['headers'] | undefined, name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

function errorCodeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
