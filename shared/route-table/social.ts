/**
 * Social sign-in (docs/social-sign-in.md): an application's end users sign in with the
 * owner's own OAuth client. Start and callback are browser navigations (HTML error pages); the
 * exchange is called by the application with its key and answers SignInResult like verify. Start
 * and exchange get the code check's throttle: every provider call and KMS Decrypt follows a start
 * (a callback without a started state stops at one read), and the exchange signs. The callback
 * keeps the stage's: a user who already consented at the provider should not meet API Gateway's
 * bare 429 there.
 *
 * Each route is a module of its own in `social/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { socialCallback } from './social/social-callback.ts';
import { socialExchange } from './social/social-exchange.ts';
import { socialForget } from './social/social-forget.ts';
import { socialPage } from './social/social-page.ts';
import { socialStart } from './social/social-start.ts';

export const socialRoutes = {
  socialPage,
  socialForget,
  socialStart,
  socialCallback,
  socialExchange,
} as const satisfies Record<string, RouteSpec>;
