import { NoBody } from '../../contracts/common.ts';
import { SignInBridgeVerifyForm } from '../../contracts/oauth-authorize.ts';
import { bodyErrors, CODE_CHECK_THROTTLE, type RouteSpec } from '../../route-spec.ts';
import { signInDone } from '../item-families.ts';
import { html } from './common.ts';

export const oauthSignInVerify = {
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
} as const satisfies RouteSpec;
