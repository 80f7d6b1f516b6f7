/**
 * Social sign-in (docs/api.md, Social sign-in): the start and callback are browser navigations;
 * the exchange is JSON.
 */
import * as z from 'zod/mini';
import { SOCIAL_PROVIDERS } from '../tenancy/social-providers.ts';

const Id = z.string().check(z.minLength(1), z.maxLength(100));

export const SocialPath = z.object({ applicationId: Id, provider: z.enum(SOCIAL_PROVIDERS) });

/**
 * The start: `return_to`, one of the application's registered return URLs (the first when left
 * out); `state`, the application's own value, handed back on the return URL.
 */
export const SocialStartQuery = z.object({
  return_to: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  state: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
  /**
   * RFC 7636 S256 of the application page's own verifier: the exchange must show the verifier, so a
   * code carried to another browser (login CSRF) or read from a URL is worth nothing there.
   */
  code_challenge: z
    .string()
    .check(
      z.regex(
        /^[A-Za-z0-9_-]{43}$/,
        'code_challenge is the base64url S256 of a code verifier (43 characters)',
      ),
    ),
  code_challenge_method: z.optional(z.literal('S256', 'code_challenge_method is S256')),
});

/**
 * The provider's redirect (RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 `iss`): the route reads the whole
 * query itself, which oauth4webapi checks; unknown parameters are ignored.
 */
export const SocialCallbackQuery = z.object({
  code: z.optional(z.string().check(z.maxLength(2048))),
  state: z.optional(z.string().check(z.maxLength(512))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(1024))),
  iss: z.optional(z.string().check(z.maxLength(2048))),
});

/** The one-time code the callback put on the return URL. */
export const SocialExchangeBody = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(128)),
  /** RFC 7636 §4.1: the verifier whose S256 the start was given. */
  code_verifier: z
    .string()
    .check(z.regex(/^[A-Za-z0-9._~-]{43,128}$/, 'code_verifier is 43 to 128 characters of [A-Za-z0-9._~-]')),
});

/** The application's own sign-in page and its Forget button (docs/api.md, Social sign-in page). */
export const SocialPagePath = z.object({ applicationId: Id });

/** A Forget button: the user id of one of the browser's recent accounts, and the page's query. */
export const SocialForgetForm = z.object({
  account: Id,
  return_to: SocialStartQuery.shape.return_to,
  state: SocialStartQuery.shape.state,
  code_challenge: SocialStartQuery.shape.code_challenge,
});
