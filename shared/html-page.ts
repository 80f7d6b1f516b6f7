/**
 * HTML pages of the service (the OAuth sign-in bridge and consent page, docs/oauth.md): one layout, one
 * escaping function for every dynamic value, and the headers that keep the pages from being framed,
 * scripted, cached or leaking their URL. The pages need no JavaScript: plain forms.
 */

import type { AppError } from './errors.ts';
import { escapeHtml } from './html-escape.ts';

/** The one style sheet, inline and allowed by its hash (CSP Level 2 §4.2.4): no 'unsafe-inline'. */
const STYLE = `
body{font-family:system-ui,sans-serif;background:#f5f6f8;color:#1d2330;margin:0}
main{max-width:26rem;margin:3rem auto;background:#fff;border-radius:.75rem;padding:2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:.5rem 0 1rem}
.brand{display:flex;align-items:center;gap:.75rem;color:#4a5263}
.brand img{width:2.5rem;height:2.5rem;border-radius:.5rem;object-fit:contain}
label{display:block;font-weight:600;margin:1rem 0 .3rem}
input[type=email],input[type=text]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #b8bfcc;border-radius:.4rem}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem;border-radius:.4rem;border:1px solid #2d5be3;background:#2d5be3;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#2d5be3;margin-left:.5rem}
.choice{display:flex;align-items:center;gap:.5rem}
.choice button{margin-top:.6rem}
button.forget{background:#fff;color:#2d5be3;padding:.6rem .8rem}
.note{color:#4a5263;font-size:.9rem}
.error{color:#a3182a;font-weight:600}
ul.scopes li{margin:.4rem 0}
label.confirm{font-weight:400;display:flex;gap:.5rem;align-items:flex-start}
code{font-size:.85rem;word-break:break-all}
a.provider{display:block;margin:.6rem 0;padding:.6rem 1.2rem;border-radius:.4rem;border:1px solid #b8bfcc;color:#1d2330;text-decoration:none;font-weight:600;text-align:center}
.account{display:flex;align-items:center;justify-content:space-between;gap:.75rem;border-top:1px solid #e3e6ec;padding:.5rem 0}
.account button{margin-top:0}
`;
/** STYLE's CSP hash, computed at the first page: most routes never answer one (docs/operations.md, "Cold starts"). */
let styleHash: string | undefined;
const styleSource = (): string =>
  (styleHash ??= `'sha256-${process.getBuiltinModule('node:crypto').createHash('sha256').update(STYLE).digest('base64')}'`);

/** What a page's CSP allows beyond nothing: image sources (the logo) and form targets. */
export interface PagePolicy {
  /** CSP source expressions for `img-src` (none: no image). */
  images?: readonly string[];
  /** CSP source expressions for `form-action` besides 'self' (Chromium applies it to a redirect's target). */
  formTargets?: readonly string[];
  /** The page has no form at all. */
  noForm?: boolean;
}

/** A strict CSP: nothing by default, the one style by hash, and only the images and form targets named. */
function contentSecurityPolicy(policy: PagePolicy = {}): string {
  const images = policy.images?.length ? policy.images.join(' ') : "'none'";
  const forms = policy.noForm ? "'none'" : ["'self'", ...(policy.formTargets ?? [])].join(' ');
  return [
    "default-src 'none'",
    `style-src ${styleSource()}`,
    `img-src ${images}`,
    `form-action ${forms}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The headers of every page: its CSP, no framing (also for browsers without CSP 2), no referrer, no cache. */
export const pageHeaders = (policy: PagePolicy = {}): Record<string, string> => ({
  'content-security-policy': contentSecurityPolicy(policy),
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
});

/** A whole document around `body` (already escaped markup), titled `title` (escaped here). */
export const htmlDocument = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;

const HTML_TYPE = 'text/html; charset=utf-8';

/** A page as a route's raw answer. */
export const htmlBody = (document: string): { base64: string; contentType: string } => ({
  base64: Buffer.from(document, 'utf8').toString('base64'),
  contentType: HTML_TYPE,
});

/** The words an error page shows for the statuses it can have. */
const TITLES: Record<number, string> = {
  400: 'This request cannot be used',
  403: 'This request was refused',
  404: 'Not found',
  410: 'This code has expired',
  413: 'This request is too large',
  415: 'This page cannot take that kind of request',
  429: 'Too many attempts',
  503: 'Please try again shortly',
};

/** The HTML error page of an error on an `html` route: its status, message and Retry-After. */
export function errorPage(error: AppError): string {
  const title = TITLES[error.status] ?? 'Something went wrong';
  const retry = error.headers?.['retry-after'];
  const retryLine = retry ? `<p class="note">You can try again in ${escapeHtml(retry)} seconds.</p>` : '';
  return htmlDocument(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(error.message)}</p>${retryLine}<p class="note">Go back to the application that sent you here and start again.</p>`,
  );
}
