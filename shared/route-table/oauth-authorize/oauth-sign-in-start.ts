import { SignInBridgeStartForm } from '../../contracts/oauth-authorize.ts';
import { bodyErrors, MAIL_THROTTLE, type RouteSpec } from '../../route-spec.ts';
import { html } from './common.ts';

export const oauthSignInStart = {
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
} as const satisfies RouteSpec;
