import { SignInResult } from '../../contracts/common.ts';
import { SocialExchangeBody } from '../../contracts/social.ts';
import { bodyErrors, CODE_CHECK_THROTTLE, credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { byKey, previousRelease } from '../item-families.ts';

export const socialExchange = {
  method: 'POST',
  path: '/auth/social/exchange',
  entry: 'functions/social/exchange.ts',
  description:
    'Exchange the one-time code of a social sign-in for a session, with the verifier of its PKCE challenge. Answers as `POST /auth/code/verify` does.',
  errorStyle: 'app',
  auth: 'api-key',
  throttle: CODE_CHECK_THROTTLE,
  access: {
    table: 'readwrite',
    sign: true,
    items: [...byKey, 'social', 'account', 'user', ...previousRelease],
  },
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
} as const satisfies RouteSpec;
