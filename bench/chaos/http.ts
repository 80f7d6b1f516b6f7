/**
 * The chaos clients' HTTP: one call to a route of the route table, retried as docs/api.md tells a
 * client to (429 RATE_LIMITED with Retry-After, 503 with Retry-After, a network error), every
 * attempt recorded with its route, status, code, request id and time.
 */
import { request as httpRequest } from 'node:http';
import { type LoopbackResponse, send } from '../../fixtures/loopback-client.ts';
import { type RouteId, routes } from '../../shared/routes.ts';
import type { Ledger } from './ledger.ts';

/**
 * `faults`: faults on; `pause`: the faults phase's windows without faults (the same load and table,
 * for latency side by side); `calm`: after the faults phase; `aim`: lost answers aimed at the writes
 * that met none (bench/chaos/writes.ts); `final`: every flow once; `setup`.
 */
export type Phase = 'faults' | 'pause' | 'calm' | 'aim' | 'final' | 'setup';

/** One attempt as the client saw it. */
export interface Attempt {
  route: RouteId;
  status: number;
  /** The envelope's `error.code` (or an OAuth `error`), if any. */
  code?: string;
  requestId?: string;
  retryAfter?: string;
  /** The service answered, and the harness dropped the answer (`--lose-answers`). */
  lost?: boolean;
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
  /** The body as text (an HTML page's forms are read from it). */
  text: string;
  headers: LoopbackResponse['headers'];
  requestId?: string;
  /** Attempts made, retries included. */
  attempts: number;
  /** An earlier attempt's answer was dropped on its way back (`--lose-answers`): the first may have done it all. */
  lostBefore?: boolean;
  /** The request ids of every attempt (what a report names for a violation). */
  requestIds: string[];
}

export interface CallOptions {
  body?: unknown;
  /** A body sent as is (a form: `new URLSearchParams(…).toString()`, with its content type in `headers`). */
  raw?: string;
  /** The query string, without its `?`. */
  query?: string;
  headers?: Record<string, string>;
  /** Retry 429 RATE_LIMITED and 503 as docs/api.md says (default); false: the flow decides. */
  retry?: boolean;
  /**
   * The request is sent to be refused (a replay, a probe of what was ended): sent again after a
   * lost answer, its refusal is the first answer again, not a change the first made.
   */
  refusalExpected?: boolean;
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
  /** Answers the harness dropped after the service sent them. */
  answersLost = 0;
  /**
   * While the phase is `faults`, the share of answers dropped after the service sent them: the
   * client sees a network error, as when a connection breaks on the way back (off by default).
   */
  loseAnswers?: { rate: number; random: () => number; ledger: Ledger };
  #nextIp = 0;
  /**
   * The route of each request in flight, by its source address: how the service's side of the run
   * (bench/chaos/writes.ts) tells which route sent a DynamoDB call.
   */
  readonly #inFlight = new Map<string, { route: RouteId; flow: string }>();
  /** The flow each client runs (by its name in the client's list), set by the harness. */
  readonly running = new Map<number, string>();

  constructor(
    readonly baseUrl: string,
    /** The second octet of this run's loopback source addresses. */
    private readonly ipBlock: number,
  ) {}

  /**
   * A loopback source address no other request of the run used: every request is its own client IP
   * (host parts 1 to 255 under each third octet: 65 280 addresses before the first comes again).
   */
  #ip(): string {
    const n = this.#nextIp++ % (256 * 255);
    return `127.${this.ipBlock}.${Math.floor(n / 255)}.${(n % 255) + 1}`;
  }

  /** The route and flow of the request in flight from `address` (as the server's socket names it), if any. */
  requestFrom(address: string | undefined): { route: RouteId; flow: string } | undefined {
    return address === undefined ? undefined : this.#inFlight.get(address.replace(/^::ffff:/, ''));
  }

  /**
   * A request sent again after its answer was lost answers as its first success would have
   * (docs/reliability.md): a success, or for a DELETE the 404 of a thing already gone. A refusal means
   * the first attempt's change made the same request fail, and the client never learns it succeeded.
   */
  #afterLostAnswer(route: RouteId, status: number, code: string | undefined, requestIds: string[]) {
    const spec = routes[route];
    // A read changes nothing a second read could see differently.
    if (this.loseAnswers === undefined || spec.method === 'GET') return;
    const fine =
      (status >= 200 && status < 300) ||
      status === 0 ||
      status >= 500 ||
      status === 429 ||
      (spec.method === 'DELETE' && status === 404);
    this.loseAnswers.ledger.expect(
      'a request sent again after a lost answer answers as the first',
      fine,
      () => `${route} answered ${status} ${code ?? ''} when sent again after its answer was lost`,
      requestIds,
    );
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
    const path =
      spec.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) throw new Error(`no ${name} for ${route}`);
        return encodeURIComponent(value);
      }) + (options.query ? `?${options.query}` : '');
    const requestIds: string[] = [];
    let lostBefore = false;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const phase = this.phase;
      let response: LoopbackResponse<unknown> | undefined;
      const sent = {
        ...(options.body === undefined ? {} : { body: options.body }),
        ...(options.raw === undefined ? {} : { raw: options.raw }),
        ...(options.headers ? { headers: options.headers } : {}),
        ip: this.#ip(),
      };
      this.#inFlight.set(sent.ip, { route, flow: this.running.get(client) ?? flow });
      const lose =
        this.loseAnswers !== undefined &&
        phase === 'faults' &&
        this.loseAnswers.random() < this.loseAnswers.rate;
      try {
        response = lose
          ? await sendAndLose(this.baseUrl, spec.method, path, sent)
          : await send(this.baseUrl, spec.method, path, sent);
      } catch {
        response = undefined;
      }
      this.#inFlight.delete(sent.ip);
      if (lose) this.answersLost++;
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
        ...(lose ? { lost: true } : {}),
        ms,
        phase,
        client,
        flow,
      });
      const wait = options.retry === false ? null : retryWait(status, code, retryAfter, attempt);
      if (wait === null && lostBefore && !lose && !options.refusalExpected)
        this.#afterLostAnswer(route, status, code, requestIds);
      if (lose) lostBefore = true;
      const givenUp = wait !== null && attempt < MAX_ATTEMPTS && wait > MAX_WAIT_MS;
      if (wait === null || attempt >= MAX_ATTEMPTS || givenUp) {
        if (givenUp) this.gaveUp++;
        return {
          status,
          ...(code ? { code } : {}),
          body: response?.body as T,
          text: response?.text ?? '',
          headers: response?.headers ?? {},
          ...(requestId ? { requestId } : {}),
          attempts: attempt,
          ...(lostBefore ? { lostBefore } : {}),
          requestIds,
        };
      }
      await sleep(wait);
      this.retries++;
    }
  }
}

/**
 * Sends the request and drops its answer once the service has sent it: the client sees the
 * connection reset, after the service did all the request asked.
 */
function sendAndLose(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string; headers?: Record<string, string>; ip: string },
): Promise<never> {
  const url = new URL(path, base);
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
    ...(payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) }),
  };
  return new Promise((_, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method, headers, agent: false, localAddress: options.ip },
      (res) => {
        res.destroy();
        reject(Object.assign(new Error('answer lost (harness)'), { code: 'ECONNRESET' }));
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
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

/**
 * The error's code in the route's error style: the envelope's `error.code`, an OAuth `error`
 * (RFC 6749 §5.2), or a JSON-RPC error's `data.code` (the MCP endpoint's refusals carry the envelope
 * there). An HTML page names none.
 */
function errorCodeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const { code, data } = error as { code?: unknown; data?: { code?: unknown } };
    if (typeof code === 'string') return code;
    return typeof data?.code === 'string' ? data.code : undefined;
  }
  return undefined;
}
