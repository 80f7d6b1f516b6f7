import { SignInBridgeQuery } from '../../contracts/oauth-authorize.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { html } from './common.ts';

export const oauthSignInPage = {
  method: 'GET',
  path: '/oauth/login',
  entry: 'functions/oauth/login-page.ts',
  description:
    "Show the sign-in bridge's email form for a pending authorization. With the browser's recent platform accounts as one-click choices.",
  errorStyle: 'html',
  auth: 'none',
  // The browser's recent accounts (docs/oauth.md "Recent accounts"): their signed cookie and the
  // per-IP limit.
  access: {
    table: 'readwrite',
    codeKey: true,
    // With recent accounts: their profiles and the per-IP limit.
    items: ['oauthRequest', 'application', 'rate', 'user'],
  },
  contract: { query: SignInBridgeQuery, responses: { 200: html }, errors: ['invalidRequest'] },
} as const satisfies RouteSpec;
