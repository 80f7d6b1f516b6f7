/**
 * The owner dashboard's files (docs/dashboard.md, "How it is served"): the page at `/dashboard` and
 * under it (the console routes in the browser, so every path it does not know as a file is the page),
 * and its hashed scripts and style sheets under `/dashboard/assets/`. The files are built by
 * dashboard/build.ts into one JSON document that the route's bundle holds, so the function reads no
 * disk and no table.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { namesEntityTag } from '../conditional-get.ts';

/** One built file: its media type and its text. */
export interface DashboardFile {
  readonly type: string;
  readonly body: string;
}

/** What dashboard/build.ts writes: the page, and every asset by its file name. */
export interface DashboardFiles {
  readonly index: string;
  readonly assets: Readonly<Record<string, DashboardFile>>;
}

/** Where the assets are served: their names carry a hash of their bytes, so they never change. */
export const ASSET_PREFIX = '/dashboard/assets/';

/**
 * The page's Content Security Policy: its own scripts, styles and API only, no inline script or
 * `eval`, and images from the service and any https origin (application logos, profile photos).
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const PAGE_TYPE = 'text/html; charset=utf-8';

export interface ServedFile {
  readonly status: 200 | 304 | 404;
  readonly contentType: string;
  readonly bytes: Buffer;
  readonly headers: Record<string, string>;
}

interface Prepared {
  readonly type: string;
  readonly plain: Buffer;
  /** The gzipped bytes, or none for a file too small to gain from it. */
  readonly gzip: Buffer | null;
  /** A strong validator per representation (RFC 9110 §8.8.3): the gzipped bytes have their own. */
  readonly etag: string;
  readonly gzipEtag: string;
}

/** Smaller than this, compressing gains less than its header costs. */
const GZIP_FROM_BYTES = 1024;

const prepare = (type: string, body: string): Prepared => {
  const plain = Buffer.from(body, 'utf8');
  const hash = createHash('sha256').update(plain).digest('base64url').slice(0, 22);
  return {
    type,
    plain,
    gzip: plain.length >= GZIP_FROM_BYTES ? gzipSync(plain, { level: 9 }) : null,
    etag: `"${hash}"`,
    gzipEtag: `"${hash}-gz"`,
  };
};

/**
 * Whether the request's `Accept-Encoding` takes gzip (RFC 9110 §12.5.3,
 * https://www.rfc-editor.org/rfc/rfc9110#section-12.5.3): `gzip` with a weight above 0, or, when gzip
 * is not named at all, `*` with one. A named `gzip;q=0` refuses it whatever `*` says.
 */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(coding.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weight = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*');
  return weight !== undefined && weight > 0;
}

/**
 * Serves the built files. The page is never cached without asking again (`no-cache`, with an ETag
 * so asking costs a 304); an asset is cached for a year, since a new build names new files; a
 * path under the assets that names no file is a real 404, so a stale page never runs a wrong script.
 */
export function dashboardServer(files: DashboardFiles) {
  // Each file is hashed and gzipped when first asked for, not all at the cold start: a container that
  // serves the page (the first request of a visit) does not compress every script for it (about 10 ms).
  let page: Prepared | undefined;
  const assets = new Map<string, Prepared>();
  const assetAt = (name: string): Prepared | undefined => {
    const file = Object.hasOwn(files.assets, name) ? files.assets[name] : undefined;
    if (!file) return undefined;
    const made = assets.get(name) ?? prepare(file.type, file.body);
    assets.set(name, made);
    return made;
  };

  const pageFile = (): Prepared => {
    page ??= prepare(PAGE_TYPE, files.index);
    return page;
  };

  return (path: string, request: { acceptEncoding?: string; ifNoneMatch?: string }): ServedFile => {
    const isAsset = path.startsWith(ASSET_PREFIX);
    const file = isAsset ? assetAt(path.slice(ASSET_PREFIX.length)) : pageFile();
    if (!file) {
      return {
        status: 404,
        contentType: 'text/plain; charset=utf-8',
        bytes: Buffer.from('Not found\n'),
        headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
      };
    }
    const gzipped = acceptsGzip(request.acceptEncoding) ? file.gzip : null;
    const etag = gzipped ? file.gzipEtag : file.etag;
    const headers: Record<string, string> = {
      etag,
      // What the answer depends on: the encoding, and the CORS headers the chain adds by Origin.
      vary: 'Origin, Accept-Encoding',
      'cache-control': isAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(isAsset
        ? {}
        : {
            'content-security-policy': DASHBOARD_CSP,
            'x-frame-options': 'DENY',
            'referrer-policy': 'same-origin',
          }),
    };
    if (namesEntityTag(request.ifNoneMatch, etag)) {
      return { status: 304, contentType: file.type, bytes: Buffer.alloc(0), headers };
    }
    if (gzipped) headers['content-encoding'] = 'gzip';
    return { status: 200, contentType: file.type, bytes: gzipped ?? file.plain, headers };
  };
}
