/**
 * The fetch of a client ID metadata document (or of a resource's protected resource metadata,
 * shared/tenancy/resource-proof.ts), through the SSRF-safe request of shared/net/pinned-request.ts
 * (public addresses only, the connection pinned to the checked ones). No redirects, only 200, only
 * JSON, at most 5 KB, one short deadline over resolution, connection and body.
 */
import { pinnedRequest } from './pinned-request.ts';

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
  /** How refusals name the document and its host (default: the client metadata document's words). */
  naming?: DocumentNaming;
}

/** The words of refusals: `document` as in "`document` is not valid JSON", `host` for its host. */
interface DocumentNaming {
  document: string;
  host: string;
}

const CLIENT_METADATA: DocumentNaming = {
  document: 'the client metadata document',
  host: 'the client_id host',
};

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

const refused = (reason: FetchRefusal, message: string) => ({ ok: false as const, reason, message });

/** The refusals the pinned request words without naming the document. */
type Unworded = Exclude<FetchRefusal, 'status' | 'special-address' | 'unresolvable'>;

/** Their words, naming the document. */
const MESSAGES: Record<Unworded, (doc: string, timeoutMs: number) => string> = {
  unreachable: (doc) => `${doc} could not be fetched`,
  timeout: (doc, ms) => `${doc} did not arrive within ${ms} ms`,
  redirect: (doc) => `${doc} URL redirects; redirects are not followed`,
  'content-type': (doc) => `${doc} is not application/json`,
  'too-large': (doc) => `${doc} is larger than ${MAX_METADATA_BYTES} bytes`,
  'not-json': (doc) => `${doc} is not valid JSON`,
};

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** GET `url` (already checked by the caller) and parse its JSON body, or say why not. */
export async function fetchMetadataDocument(url: URL, options: FetchOptions = {}): Promise<FetchOutcome> {
  const timeoutMs = options.timeoutMs ?? METADATA_FETCH_TIMEOUT_MS;
  const naming = options.naming ?? CLIENT_METADATA;
  const answer = await pinnedRequest(url, {
    headers: { accept: 'application/json' },
    hostLabel: naming.host,
    maxBytes: MAX_METADATA_BYTES,
    timeoutMs,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    allowLoopback: options.allowLoopback === true,
    caFile: options.caFile,
    screen: (status, headers) => {
      if (status >= 300 && status < 400) return refused('redirect', '');
      if (status !== 200) {
        return refused('status', `${naming.document} answered ${status}, not 200`);
      }
      if (mediaType(headers['content-type']) !== 'application/json') return refused('content-type', '');
      return undefined;
    },
  });
  if (!answer.ok) {
    const reason = answer.reason as FetchRefusal;
    // The screen's and the host's refusals come worded; the others get the document's words.
    return refused(
      reason,
      reason in MESSAGES ? MESSAGES[reason as Unworded](naming.document, timeoutMs) : answer.message,
    );
  }
  try {
    const document: unknown = JSON.parse(answer.body.toString('utf8'));
    const cacheControl = answer.headers['cache-control'];
    return { ok: true, document, cacheControl };
  } catch {
    return refused('not-json', MESSAGES['not-json'](naming.document, timeoutMs));
  }
}
