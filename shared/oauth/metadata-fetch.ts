/**
 * The fetch of a client ID metadata document, safe against server-side request forgery: the host
 * is resolved once here, every address it resolves to must be a public one (special-addresses.ts),
 * and the connection goes to those checked addresses only (a `lookup` that answers them), so a DNS
 * answer that changes between the check and the connection (rebinding) is never used. TLS still
 * verifies the certificate for the hostname (SNI and Host stay the hostname). No redirects, only
 * 200, only JSON, at most 5 KB, one short deadline over resolution, connection and body.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { refusedAddress } from './special-addresses.ts';

/** The draft's advice: a metadata document is small; stop reading beyond this. */
const MAX_METADATA_BYTES = 5 * 1024;
/** The whole fetch (resolution, TLS, body) must finish within this. */
const METADATA_FETCH_TIMEOUT_MS = 3000;

export interface FetchOptions {
  /** Every address `hostname` resolves to (default: the system resolver, `dns.lookup` with `all`). */
  resolve?: (hostname: string) => Promise<string[]>;
  /** The deadline of the whole fetch (default METADATA_FETCH_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Local mode and tests: a loopback address may be fetched (OAUTH_METADATA_ALLOW_LOOPBACK). */
  allowLoopback?: boolean;
  /** A PEM file of extra certificate authorities to trust (OAUTH_METADATA_CA_FILE). */
  caFile?: string | undefined;
}

export type FetchOutcome =
  | { ok: true; document: unknown; cacheControl: string | undefined }
  | { ok: false; reason: FetchRefusal; message: string };

export type FetchRefusal =
  | 'special-address'
  | 'unresolvable'
  | 'unreachable'
  | 'timeout'
  | 'redirect'
  | 'status'
  | 'content-type'
  | 'too-large'
  | 'not-json';

const refused = (reason: FetchRefusal, message: string): FetchOutcome => ({ ok: false, reason, message });

const systemResolve = async (hostname: string): Promise<string[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const extraCas = new Map<string, string[]>();
/** The trusted roots: Node's bundled ones, plus the file's (read once per container). */
function trustedCas(caFile: string | undefined): string[] | undefined {
  if (!caFile) return undefined;
  let cas = extraCas.get(caFile);
  if (!cas) {
    cas = [...rootCertificates, readFileSync(caFile, 'utf8')];
    extraCas.set(caFile, cas);
  }
  return cas;
}

/** Resolution and the address check: the addresses the connection may use, or a refusal. */
async function checkedAddresses(
  hostname: string,
  options: FetchOptions,
): Promise<{ addresses: string[] } | FetchOutcome> {
  let addresses: string[];
  if (isIP(hostname)) {
    addresses = [hostname];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(hostname);
    } catch {
      return refused('unresolvable', 'the client_id host does not resolve');
    }
  }
  if (addresses.length === 0) return refused('unresolvable', 'the client_id host does not resolve');
  // Any special-use answer refuses the host: a resolver may rotate which one a client gets.
  for (const address of addresses) {
    const use = refusedAddress(address, options.allowLoopback === true);
    if (use) return refused('special-address', `the client_id host resolves to a ${use} address`);
  }
  return { addresses };
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** GET `url` (already checked by the caller) and parse its JSON body, or say why not. */
export async function fetchMetadataDocument(url: URL, options: FetchOptions = {}): Promise<FetchOutcome> {
  const timeoutMs = options.timeoutMs ?? METADATA_FETCH_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const timedOut = new Promise<FetchOutcome>((resolve) =>
    controller.signal.addEventListener('abort', () =>
      resolve(refused('timeout', `the client metadata document did not arrive within ${timeoutMs} ms`)),
    ),
  );
  try {
    return await Promise.race([timedOut, fetchChecked(url, options, controller.signal)]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

async function fetchChecked(url: URL, options: FetchOptions, signal: AbortSignal): Promise<FetchOutcome> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const checked = await checkedAddresses(hostname, options);
  if (!('addresses' in checked)) return checked;
  if (signal.aborted) return refused('timeout', 'the client metadata document did not arrive in time');
  const answers = checked.addresses.map((address) => ({ address, family: isIP(address) }));
  const [first] = answers as [{ address: string; family: number }];
  return new Promise<FetchOutcome>((resolve) => {
    const req = request(
      {
        hostname,
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { accept: 'application/json' },
        // SNI names the host (never an IP literal, RFC 6066 §3); the certificate is checked for it.
        ...(isIP(hostname) ? {} : { servername: hostname }),
        ...(options.caFile ? { ca: trustedCas(options.caFile) } : {}),
        // Connect only to the addresses that were checked, whatever DNS answers now (with `all`,
        // Node tries them in turn: RFC 8305 happy eyeballs between IPv6 and IPv4).
        lookup: (_host, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) {
            (callback as unknown as (e: null, a: typeof answers) => void)(null, answers);
          } else callback(null, first.address, first.family);
        },
        agent: false,
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const done = (outcome: FetchOutcome) => {
          res.destroy();
          resolve(outcome);
        };
        if (status >= 300 && status < 400) {
          return done(
            refused('redirect', 'the client metadata document URL redirects; redirects are not followed'),
          );
        }
        if (status !== 200)
          return done(refused('status', `the client metadata document answered ${status}, not 200`));
        if (mediaType(res.headers['content-type']) !== 'application/json') {
          return done(refused('content-type', 'the client metadata document is not application/json'));
        }
        const tooLarge = refused(
          'too-large',
          `the client metadata document is larger than ${MAX_METADATA_BYTES} bytes`,
        );
        if (Number(res.headers['content-length'] ?? 0) > MAX_METADATA_BYTES) return done(tooLarge);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_METADATA_BYTES) return done(tooLarge);
          chunks.push(chunk);
        });
        res.on('error', () =>
          resolve(refused('unreachable', 'the client metadata document could not be read')),
        );
        res.on('end', () => {
          try {
            const document: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            const cacheControl = res.headers['cache-control'];
            resolve({ ok: true, document, cacheControl });
          } catch {
            resolve(refused('not-json', 'the client metadata document is not valid JSON'));
          }
        });
        return undefined;
      },
    );
    req.on('error', () =>
      resolve(refused('unreachable', 'the client metadata document could not be fetched')),
    );
    req.end();
  });
}
