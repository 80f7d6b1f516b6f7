/**
 * The requests of the OAuth authorization routes (docs/api.md, OAuth authorization); their answers
 * are HTML or redirects.
 */
import * as z from 'zod/mini';
import { Email } from '../identity/email.ts';
import { Code } from '../sign-in/schemas.ts';

const text = z.optional(z.string());

/**
 * The authorization request's parameters, each optional here: the route decides (in the order of
 * docs/oauth.md, Authorization request) which missing one is a 400 and which goes back to the
 * client. Unknown parameters are ignored (RFC 6749 §3.1).
 */
export const AuthorizeQuery = z.object({
  client_id: text,
  redirect_uri: text,
  response_type: text,
  code_challenge: text,
  code_challenge_method: text,
  resource: text,
  scope: text,
  state: text,
});

/** The pending authorization request the sign-in bridge works for (its id from the authorize redirect). */
const RequestId = z.string().check(z.minLength(1), z.maxLength(64));

export const SignInBridgeQuery = z.object({ request: RequestId });

/**
 * The bridge's start: an `email` typed in, or the `account` (a user id) of one of the browser's
 * recent accounts, whose address the service resolves (docs/oauth.md, Recent accounts). Exactly
 * one of the two.
 */
export const SignInBridgeStartForm = z.object({
  request: RequestId,
  email: z.optional(Email),
  account: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});

/**
 * The code form: the address typed on the email form, or, for a recent account chosen with one click,
 * that account's id (resolved again from the browser's signed list: the page never holds its address).
 */
export const SignInBridgeVerifyForm = z.object({
  request: RequestId,
  code: Code,
  email: z.optional(Email),
  account: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});

/**
 * The bridge's "Forget" button of one recent account (docs/oauth.md, Recent accounts): the request
 * to return to, the account's id.
 */
export const SignInBridgeForgetForm = z.object({
  request: RequestId,
  account: z.string().check(z.minLength(1), z.maxLength(100)),
});

export const ConsentForm = z.object({
  request: RequestId,
  csrf: z.string().check(z.maxLength(128)),
  decision: z.enum(['approve', 'deny']),
  /** The required checkbox of the form; absent when unticked (a form sends no unticked box). */
  confirm: z.optional(z.literal('yes')),
});
