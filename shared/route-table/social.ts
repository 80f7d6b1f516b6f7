/**
 * Social sign-in (docs/social-sign-in.md): an application's end users sign in with the
 * owner's own OAuth client. Start and callback are browser navigations (HTML error pages); the
 * exchange is called by the application with its key and answers SignInResult like verify. Spread
 * into the one table (shared/routes.ts). Start and exchange get the code check's throttle: every
 * provider call and KMS Decrypt follows a start (a callback without a started state stops at one
 * read), and the exchange signs. The callback keeps the stage's: a user who already consented at the
 * provider should not meet API Gateway's bare 429 there.
 */
import { NoBody, SignInResult } from '../contracts/common.ts';
import {
  SocialCallbackQuery,
  SocialExchangeBody,
  SocialForgetForm,
  SocialPagePath,
  SocialPath,
  SocialStartQuery,
} from '../contracts/social.ts';
import { bodyErrors, CODE_CHECK_THROTTLE, credentialErrors, type RouteSpec } from '../route-spec.ts';
import { byKey } from './item-families.ts';

export const socialRoutes = {
  // The application's own sign-in page: its providers and the browser's recent accounts of it,
  // whose signed cookie needs the code-hash key.
  socialPage: {
    method: 'GET',
    path: '/auth/social/{applicationId}',
    entry: 'functions/social/page.ts',
    description:
      "Show an application's social sign-in page. A button per provider it offers and the browser's recent accounts of that application.",
    errorStyle: 'html',
    auth: 'none',
    access: {
      table: 'readwrite',
      codeKey: true,
      // The application's page: it, the per-IP limits, the profiles of the cookie's accounts.
      items: ['application', 'rate', 'user'],
    },
    contract: {
      params: SocialPagePath,
      // `return_to` and `state` as the start takes them, passed on to the page's links and forms.
      query: SocialStartQuery,
      responses: { 200: { raw: 'text/html' } },
      errors: ['invalidRequest', 'notFound', 'rateLimited'],
    },
  },
  // The page's Forget button: from the service's own page only (the sign-in bridge's Origin rule).
  socialForget: {
    method: 'POST',
    path: '/auth/social/{applicationId}/forget',
    entry: 'functions/social/forget.ts',
    description:
      'Forget a recent account from the social sign-in page. Always a redirect on success: 303 back to that page.',
    errorStyle: 'html',
    auth: 'none',
    access: { table: 'readwrite', codeKey: true, items: ['rate', 'user', 'application'] },
    contract: {
      params: SocialPagePath,
      body: { form: SocialForgetForm },
      responses: { 303: NoBody },
      errors: [...bodyErrors, 'forbidden', 'rateLimited'],
    },
  },
  socialStart: {
    method: 'GET',
    path: '/auth/social/{applicationId}/{provider}',
    entry: 'functions/social/start.ts',
    description:
      'Start a social sign-in. Always a redirect on success: 302 to the provider, with state and PKCE bound to this browser.',
    errorStyle: 'html',
    auth: 'none',
    throttle: CODE_CHECK_THROTTLE,
    access: { table: 'readwrite', items: ['application', 'rate', 'social'] },
    contract: {
      params: SocialPath,
      query: SocialStartQuery,
      responses: { 302: NoBody },
      errors: ['invalidRequest', 'notFound', 'rateLimited', 'providerFailed'],
    },
  },
  socialCallback: {
    method: 'GET',
    path: '/auth/social/{applicationId}/{provider}/callback',
    entry: 'functions/social/callback.ts',
    description:
      "Finish a social sign-in: the provider's redirect. Always a redirect on success: 303 to the application's return URL with a one-time code and its `state`.",
    errorStyle: 'html',
    auth: 'none',
    // The owner's client secret is opened here and nowhere else (docs/security.md "Provider client secrets");
    // the recent-accounts cookie is signed under the code-hash key.
    access: {
      table: 'readwrite',
      seal: 'decrypt',
      codeKey: true,
      // A first sign-in creates the account, its user and tenant organization, and counts the new user.
      items: ['application', 'rate', 'social', 'account', 'user', 'organization', 'statistics'],
    },
    contract: {
      params: SocialPath,
      query: SocialCallbackQuery,
      responses: { 303: NoBody },
      errors: [
        'invalidRequest',
        'forbidden',
        'notFound',
        'accountDisabled',
        'accountChanged',
        'emailNotVerified',
        'providerDenied',
        'rateLimited',
        'providerFailed',
      ],
    },
  },
  socialExchange: {
    method: 'POST',
    path: '/auth/social/exchange',
    entry: 'functions/social/exchange.ts',
    description:
      'Exchange the one-time code of a social sign-in for a session, with the verifier of its PKCE challenge. Answers as `POST /auth/code/verify` does.',
    errorStyle: 'app',
    auth: 'api-key',
    throttle: CODE_CHECK_THROTTLE,
    access: { table: 'readwrite', sign: true, items: [...byKey, 'social', 'account', 'user', 'statistics'] },
    contract: {
      body: { json: SocialExchangeBody },
      responses: { 200: SignInResult },
      errors: [
        ...bodyErrors,
        ...credentialErrors,
        'socialCodeUnusable',
        'accountDisabled',
        'accountChanged',
        'rateLimited',
        'outOfTime',
      ],
    },
  },
} as const satisfies Record<string, RouteSpec>;
