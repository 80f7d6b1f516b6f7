/**
 * OAuth authorization (docs/api.md "OAuth authorization"): the authorization endpoint, the sign-in
 * bridge and the consent POST. Browser navigations: the pages answer HTML (`{ raw: 'text/html' }`),
 * refusals of the bridge and consent are HTML error pages (`errorStyle: 'html'`), the authorize
 * endpoint's 400s are RFC 6749 JSON. Spread into the one table (shared/routes.ts).
 */
import { NoBody } from '../contracts/common.ts';
import {
  AuthorizeQuery,
  ConsentForm,
  SignInBridgeForgetForm,
  SignInBridgeQuery,
  SignInBridgeStartForm,
  SignInBridgeVerifyForm,
} from '../contracts/oauth-authorize.ts';
import { bodyErrors, CODE_CHECK_THROTTLE, MAIL_THROTTLE, type RouteSpec } from '../route-spec.ts';
import { bySession, signInDone } from './item-families.ts';

const html = { raw: 'text/html' } as const;

export const oauthAuthorizeRoutes = {
  oauthAuthorize: {
    method: 'GET',
    path: '/oauth/authorize',
    entry: 'functions/oauth/authorize.ts',
    description:
      'Start an OAuth authorization: the consent page. Without a platform session, redirects to the sign-in bridge; errors a client could abuse are shown, never redirected.',
    errorStyle: 'oauth',
    auth: 'platform-cookie',
    access: {
      table: 'readwrite',
      publicKeys: true,
      // The platform cookie's session; the resource, the application and the membership (the role);
      // the pending request written.
      items: [...bySession, 'resource', 'application', 'organization', 'oauthRequest'],
    },
    contract: {
      query: AuthorizeQuery,
      // 400 HTML: an error for the client shown with a link instead of redirected (no session, no role).
      responses: { 200: html, 302: NoBody, 400: html },
      errors: ['invalidRequest', 'oauthInvalidRequest', 'invalidClient'],
    },
  },
  oauthSignInPage: {
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
  },
  oauthSignInStart: {
    method: 'POST',
    path: '/oauth/login',
    entry: 'functions/oauth/login-start.ts',
    description: "Email a sign-in code from the bridge's form. Answers the page that asks for the code.",
    errorStyle: 'html',
    auth: 'none',
    access: {
      table: 'readwrite',
      mail: true,
      codeKey: true,
      items: ['oauthRequest', 'application', 'account', 'rate', 'device', 'user'],
    },
    // Every post sends an email, as `POST /auth/code/start` does.
    throttle: MAIL_THROTTLE,
    contract: {
      body: { form: SignInBridgeStartForm },
      responses: { 200: html },
      errors: [...bodyErrors, 'forbidden', 'rateLimited', 'mailUnavailable'],
    },
  },
  oauthSignInVerify: {
    method: 'POST',
    path: '/oauth/login/verify',
    entry: 'functions/oauth/login-verify.ts',
    description:
      'Sign the browser in with the emailed code on the bridge. Always a redirect on success: 303 back to the authorization request, with the platform session cookie.',
    errorStyle: 'html',
    auth: 'none',
    access: { table: 'readwrite', sign: true, codeKey: true, items: [...signInDone, 'oauthRequest'] },
    throttle: CODE_CHECK_THROTTLE,
    contract: {
      body: { form: SignInBridgeVerifyForm },
      responses: { 303: NoBody, 400: html },
      errors: [
        ...bodyErrors,
        'forbidden',
        'codeExpired',
        'accountDisabled',
        'accountChanged',
        'rateLimited',
        'tooManyAttempts',
        'outOfTime',
      ],
    },
  },
  // The email page's "Forget" button of a recent account, a plain form (no script).
  oauthSignInForget: {
    method: 'POST',
    path: '/oauth/login/forget',
    entry: 'functions/oauth/login-forget.ts',
    description:
      "Forget one recent account from the bridge's page. Always a redirect on success: 303 back to the email page, with the recent-accounts cookie set again.",
    errorStyle: 'html',
    auth: 'none',
    access: {
      table: 'readwrite',
      codeKey: true,
      // The pending request, then forgetRecentAccount's reads: the limit, the profiles, their applications.
      items: ['oauthRequest', 'rate', 'user', 'application'],
    },
    contract: {
      body: { form: SignInBridgeForgetForm },
      responses: { 303: NoBody },
      errors: [...bodyErrors, 'forbidden', 'rateLimited'],
    },
  },
  oauthConsent: {
    method: 'POST',
    path: '/oauth/consent',
    entry: 'functions/oauth/consent.ts',
    description:
      "Approve or deny the consent page. Always a redirect on success: 303 to the client's redirect URI with the code, or with `access_denied`.",
    errorStyle: 'html',
    auth: 'platform-cookie',
    access: {
      table: 'readwrite',
      publicKeys: true,
      // The request spent, the role read again, the code written.
      items: [...bySession, 'oauthRequest', 'application', 'organization', 'authorizationCode'],
    },
    contract: {
      body: { form: ConsentForm },
      responses: { 303: NoBody },
      errors: [...bodyErrors, 'forbidden'],
    },
  },
} as const satisfies Record<string, RouteSpec>;
