/**
 * One HTTPS request to a host the caller does not control, safe against server-side request
 * forgery: the host is resolved once here, every address it resolves to must be a public one
 * (shared/net/special-addresses.ts), and the connection goes to those checked addresses only (a
 * `lookup` that answers them), so a DNS answer that changes between the check and the connection
 * (rebinding) is never used. TLS still verifies the certificate for the hostname (SNI and Host stay
 * the hostname). No redirects are followed, the body is capped, and one deadline covers resolution,
 * connection and body. Client ID metadata documents (shared/net/metadata-fetch.ts) and social
 * sign-in providers (shared/social/provider-fetch.ts) both go through it.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { refusedAddress } from './special-addresses.ts';

export interface PinnedRequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** How the refusals of the host name it (default `the host`), e.g. `the client_id host`. */
  hostLabel?: string;
  /** Stop reading beyond this many bytes (`too-large`). */
  maxBytes: number;
  /** The deadline of the whole request (resolution, TLS, body). */
  timeoutMs: number;
  /** Every address `hostname` resolves to (default: the system resolver, `dns.lookup` with `all`). */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Local mode and tests: a loopback address may be fetched (OAUTH_METADATA_ALLOW_LOOPBACK). */
  allowLoopback?: boolean;
  /** A PEM file of extra certificate authorities to trust (OAUTH_METADATA_CA_FILE). */
  caFile?: string | undefined;
  /**
   * Decides on the status and headers before the body is read: a refusal stops there (a
   * metadata document refuses anything but 200 JSON). Without it every answer is read.
   */
  screen?: (status: number, headers: IncomingHttpHeaders) => PinnedRefusal | undefined;
}

type PinnedReason = 'special-address' | 'unresolvable' | 'unreachable' | 'timeout' | 'too-large';

/** A refusal: `reason` for the caller's own wording, `message` naming no address. */
interface PinnedRefusal {
  ok: false;
  reason: PinnedReason | (string & {});
  message: string;
}

export type PinnedOutcome =
  | { ok: true; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | PinnedRefusal;

const refused = (reason: PinnedReason, message: string): PinnedRefusal => ({ ok: false, reason, message });

const systemResolve = async (hostname: string): Promise<string[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const extraContexts = new Map<string, SecureContext>();
/**
 * The TLS context trusting Node's bundled roots plus the file's, built once per container: building
 * one parses every root (tens of milliseconds of CPU), which per request made parallel fetches (a
 * configuration write proving several resources) queue behind each other past their deadline.
 */
function trustedContext(caFile: string): SecureContext {
  let context = extraContexts.get(caFile);
  if (!context) {
    // A bundle of several certificates: each one its own entry (Node reads one per entry).
    const pems = readFileSync(caFile, 'utf8').match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    );
    context = createSecureContext({ ca: [...rootCertificates, ...(pems ?? [])] });
    extraContexts.set(caFile, context);
  }
  return context;
}

/** Resolution and the address check: the addresses the connection may use, or a refusal. */
async function checkedAddresses(
  hostname: string,
  options: PinnedRequestOptions,
): Promise<{ addresses: string[] } | PinnedRefusal> {
  let addresses: string[];
  if (isIP(hostname)) {
    addresses = [hostname];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(hostname);
    } catch {
      return refused('unresolvable', `${options.hostLabel ?? 'the host'} does not resolve`);
    }
  }
  if (addresses.length === 0)
    return refused('unresolvable', `${options.hostLabel ?? 'the host'} does not resolve`);
  // Any special-use answer refuses the host: a resolver may rotate which one a client gets.
  for (const address of addresses) {
    const use = refusedAddress(address, options.allowLoopback === true);
    if (use) {
      return refused('special-address', `${options.hostLabel ?? 'the host'} resolves to a ${use} address`);
    }
  }
  return { addresses };
}

/** Sends the request to `url` (https, already checked by the caller) and reads its answer, or says why not. */
export async function pinnedRequest(url: URL, options: PinnedRequestOptions): Promise<PinnedOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const timedOut = new Promise<PinnedOutcome>((resolve) =>
    controller.signal.addEventListener('abort', () =>
      resolve(refused('timeout', `no answer within ${options.timeoutMs} ms`)),
    ),
  );
  try {
    return await Promise.race([timedOut, send(url, options, controller.signal)]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

async function send(url: URL, options: PinnedRequestOptions, signal: AbortSignal): Promise<PinnedOutcome> {
  if (url.protocol !== 'https:') return refused('unreachable', 'only https is fetched');
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const checked = await checkedAddresses(hostname, options);
  if (!('addresses' in checked)) return checked;
  if (signal.aborted) return refused('timeout', 'no answer in time');
  const answers = checked.addresses.map((address) => ({ address, family: isIP(address) }));
  const [first] = answers as [{ address: string; family: number }];
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  return new Promise<PinnedOutcome>((resolve) => {
    const req = request(
      {
        hostname,
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'GET',
        headers: { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        // SNI names the host (never an IP literal, RFC 6066 §3); the certificate is checked for it.
        ...(isIP(hostname) ? {} : { servername: hostname }),
        ...(options.caFile ? { secureContext: trustedContext(options.caFile) } : {}),
        // Connect only to the addresses that were checked, whatever DNS answers now (with `all`,
        // Node tries them in turn: RFC 8305 happy eyeballs between IPv6 and IPv4).
        lookup: (_host, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) {
            callback(null, answers);
          } else callback(null, first.address, first.family);
        },
        agent: false,
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const done = (outcome: PinnedOutcome) => {
          res.destroy();
          resolve(outcome);
        };
        const screened = options.screen?.(status, res.headers);
        if (screened) return done(screened);
        const tooLarge = refused('too-large', `the answer is larger than ${options.maxBytes} bytes`);
        if (Number(res.headers['content-length'] ?? 0) > options.maxBytes) return done(tooLarge);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) return done(tooLarge);
          chunks.push(chunk);
        });
        res.on('error', () => resolve(refused('unreachable', 'the answer could not be read')));
        res.on('end', () => resolve({ ok: true, status, headers: res.headers, body: Buffer.concat(chunks) }));
        return undefined;
      },
    );
    req.on('error', () => resolve(refused('unreachable', 'the host could not be reached')));
    req.end(body);
  });
}
