import { request as httpRequest } from 'node:http';

/** An answer of the local server, its body parsed as JSON when it is JSON. */
export interface LoopbackResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received (an image's bytes). */
  bytes: Buffer;
  text: string;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (with `headers['content-type']` if given). */
  raw?: string;
  headers?: Record<string, string>;
  /**
   * Source address on loopback (127.0.0.0/8). The server sees it as API Gateway's sourceIp,
   * so the bench and the tests can act as many clients without a forwarded header.
   */
  ip?: string;
}

/**
 * A minimal HTTP client over node:http that can pick its loopback source address. The bench drives
 * the local server with it, and so do the tests (test/support/http-client.ts).
 */
export function send<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<LoopbackResponse<T>> {
  const url = new URL(path, base);
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        agent: false,
        ...(options.ip ? { localAddress: options.ip } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text, body: body as T });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
