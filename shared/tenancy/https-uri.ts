/**
 * Absolute https URIs as the configuration stores them: OAuth resources (RFC 8707), social sign-in
 * return URLs and OIDC issuers share one rule and one spelling.
 */
import * as z from 'zod/mini';

/** DynamoDB's partition key holds at most 2048 bytes: `RESOURCE#` and the resource must fit. */
const MAX_URI_LENGTH = 2000;

/**
 * An absolute https URI without a fragment or user info, in its WHATWG URL serialization (lower-case
 * host, default port left out, an empty path written `/`), so one URI has one spelling wherever it
 * is compared (`applicationOfResource`, a return URL). Null for anything else.
 */
export function httpsUri(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || text.includes('#') || url.username || url.password) return null;
  return url.href.length <= MAX_URI_LENGTH ? url.href : null;
}

/** A string that is an https URI (`httpsUri`), parsed into its one spelling; else `message`. */
export const HttpsUri = (message: string) =>
  z.pipe(
    z.string().check(z.maxLength(MAX_URI_LENGTH)),
    z.transform((text: string, ctx) => {
      const uri = httpsUri(text);
      if (uri !== null) return uri;
      ctx.issues.push({ code: 'custom', message, input: text });
      return z.NEVER;
    }),
  );

/** At most `max` https URIs, each listed once (in their one spelling); `noun` names them in messages. */
export const UniqueHttpsUris = (max: number, noun: string, message: string) =>
  z.array(HttpsUri(message)).check(
    z.maxLength(max, `at most ${max} ${noun}s`),
    z.check((ctx) => {
      const seen = new Set<string>();
      ctx.value.forEach((uri, index) => {
        if (seen.has(uri)) {
          ctx.issues.push({ code: 'custom', message: `a ${noun} is listed once`, input: uri, path: [index] });
        }
        seen.add(uri);
      });
    }),
  );
