/**
 * OAuth authorization (docs/api.md "OAuth authorization"): the authorization endpoint, the sign-in
 * bridge and the consent POST. Browser navigations: the pages answer HTML (`{ raw: 'text/html' }`),
 * refusals of the bridge and consent are HTML error pages (`errorStyle: 'html'`), the authorize
 * endpoint's 400s are RFC 6749 JSON.
 *
 * Each route is a module of its own in `oauth-authorize/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { oauthAuthorize } from './oauth-authorize/oauth-authorize.ts';
import { oauthConsent } from './oauth-authorize/oauth-consent.ts';
import { oauthSignInForget } from './oauth-authorize/oauth-sign-in-forget.ts';
import { oauthSignInPage } from './oauth-authorize/oauth-sign-in-page.ts';
import { oauthSignInStart } from './oauth-authorize/oauth-sign-in-start.ts';
import { oauthSignInVerify } from './oauth-authorize/oauth-sign-in-verify.ts';

export const oauthAuthorizeRoutes = {
  oauthAuthorize,
  oauthSignInPage,
  oauthSignInStart,
  oauthSignInVerify,
  oauthSignInForget,
  oauthConsent,
} as const satisfies Record<string, RouteSpec>;
