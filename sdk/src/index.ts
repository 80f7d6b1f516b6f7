/**
 * @doorcode/client 4.1.0: sign-in by an emailed code or a social provider in the browser, the session kept in
 * `localStorage['auth:token']` and in step across tabs. Reference: docs/sdk.md.
 */
export {
  CATCH_UP_MS,
  type ClientOptions,
  createClient,
  type DoorcodeClient,
  REFRESH_LOCK,
} from './client.ts';
export { DoorcodeError, type ErrorDetails } from './errors.ts';
export type { PollOptions } from './poll.ts';
export { type ChangeListener, LOGOUT_KEY, SESSION_REVOKED_EVENT, TOKEN_KEY } from './session-store.ts';
export { SOCIAL_KEY, type SocialSignInInput } from './social.ts';
export type * from './types.ts';
