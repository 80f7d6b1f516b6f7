import type { AuthMode } from './route-spec.ts';

/**
 * What each auth mode of a route (shared/route-spec.ts `AuthMode`) has the chain read and refuse
 * before the handler runs, resolved into a typed caller (shared/sessions/caller.ts). A record over
 * every mode: a new one does not compile until it is described here, and docs/api.md's list of the
 * modes is written from it (npm run docs).
 */
export const authModes = {
  none: 'nothing is read: no key, no session (health, discovery, poll).',
  'key-optional': 'an `X-API-Key` may come and must then be valid (sign-in by code).',
  'secret-key': 'a secret key (`sk_`) is required (peek).',
  'api-key': 'a public or secret key is required (`GET /application/by-api-key`).',
  session:
    "a session token by Bearer or cookie is required, with an optional key of the session's application.",
  'session-optional': 'as `session`, but anonymous and key-only callers pass too (`GET /auth/session`).',
  'sign-out': 'every presented token of the target application; never refused.',
  manage:
    "any credential (a session, a key, or both), then the route's `permission` decides from the " +
    '[permission matrix](#permission-matrix); no credential is 401. The impersonation cookie is passed ' +
    "over: the support user's own session answers, but a platform page may not start a second " +
    'impersonation while it holds one ([Impersonation](#impersonation)).',
  impersonation:
    'the impersonation tokens presented by Bearer or impersonation cookie, verified but not required ' +
    'to have a live session, none required (`POST /impersonation/{id}/end` matches them to its record, ' +
    '403 otherwise).',
  'platform-cookie':
    'only the platform session cookie (`<service>.session_token`), as the OAuth pages read it; a ' +
    'missing, dead or invalid cookie is an anonymous caller (the page sends the user to sign in), never ' +
    '401; a cookie on a state-changing request from where it may not change state is 403 ' +
    '([OAuth authorization](#oauth-authorization)).',
} as const satisfies Readonly<Record<AuthMode, string>>;
