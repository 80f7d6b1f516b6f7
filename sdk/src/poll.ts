import { DoorcodeError } from './errors.ts';

export interface PollOptions {
  /** The `deviceCode` of `start`'s answer. */
  deviceCode: string;
  /** Seconds between polls; `start`'s `interval` (default 5). */
  interval?: number;
  /** Seconds the request lives; `start`'s `expiresIn` (default 600). Polling stops then. */
  expiresIn?: number;
  /** Stops polling: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** One poll request: the answer on 200, else the typed error. */
export type PollOnce<T> = (deviceCode: string, signal: AbortSignal | undefined) => Promise<T>;

const EXPIRED = () => new DoorcodeError(400, 'EXPIRED', 'The sign-in request has expired; start again');

/**
 * Polls (RFC 8628 §3.4-3.5 style) until the code is approved: waits `interval` before each poll;
 * `authorization_pending` (428) polls again; `slow_down` (429 with `details.interval`) adopts the
 * longer interval for every later poll. A passing refusal waits and polls again: any other 429 (the
 * service's, or API Gateway's throttle without the envelope) and a 503 with a `retryAfter` wait
 * `max(retryAfter ?? interval, interval)`; a poll that reached no one (`NETWORK_ERROR`) waits the
 * interval. Stops with `EXPIRED` when the next poll would come after the request's expiry, and on
 * any other error.
 */
export async function pollUntilApproved<T>(once: PollOnce<T>, options: PollOptions): Promise<T> {
  const { deviceCode, signal } = options;
  let interval = options.interval ?? 5;
  const deadline = Date.now() + (options.expiresIn ?? 600) * 1000;
  let wait = interval;
  for (;;) {
    if (Date.now() + wait * 1000 >= deadline) throw EXPIRED();
    await sleep(wait * 1000, signal);
    try {
      return await once(deviceCode, signal);
    } catch (error) {
      if (!(error instanceof DoorcodeError)) throw error;
      const { status, details } = error;
      if (status === 428) {
        // RFC 8628 §3.5: a slow_down interval holds for every later poll; never shrink it.
        interval = Math.max(interval, details.interval ?? 0);
        wait = interval;
      } else if (status === 429 && details.reason === 'slow_down' && details.interval !== undefined) {
        interval = details.interval;
        wait = interval;
      } else if (status === 429 || (status === 503 && details.retryAfter !== undefined)) {
        wait = Math.max(details.retryAfter ?? interval, interval);
      } else if (error.code === 'NETWORK_ERROR') {
        wait = interval;
      } else {
        throw error;
      }
    }
  }
}

/** Resolves after `ms`; rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
