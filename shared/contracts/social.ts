/** Social sign-in (issue 12): the start and callback are browser navigations; the exchange is JSON. */
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
});

/** The application's own sign-in page and its Forget button (issue 12). */
export const SocialPagePath = z.object({ applicationId: Id });

/** A Forget button: the user id of one of the browser's recent accounts, and the page's query. */
export const SocialForgetForm = z.object({
  account: Id,
  return_to: SocialStartQuery.shape.return_to,
  state: SocialStartQuery.shape.state,
});
