import {
  type LoopbackResponse,
  type RequestOptions,
  send as sendLoopback,
} from '../../fixtures/loopback-client.ts';

export type { RequestOptions };

/** An answer of the server under test; the body is loosely typed, as tests read it field by field. */
export type TestResponse<T = any> = LoopbackResponse<T>;

/** One request to the local server, from a loopback source address if `options.ip` is given. */
export const send = <T = any>(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse<T>> => sendLoopback<T>(base, method, path, options);

let nextIp = 2;
/** A loopback address no other test in this file has used (a fresh client for rate limits). */
export function freshIp(): string {
  const n = nextIp++;
  return `127.${(process.pid >> 8) & 0xff}.${(n >> 8) & 0xff}.${n & 0xff}`;
}
