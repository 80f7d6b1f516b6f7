import { NoBody } from '../../contracts/common.ts';
import { SocialCallbackQuery, SocialPath } from '../../contracts/social.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { previousRelease } from '../item-families.ts';

export const socialCallback = {
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
    // A first sign-in creates the account, its user and tenant organization.
    items: ['application', 'rate', 'social', 'account', 'user', 'organization', ...previousRelease],
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
} as const satisfies RouteSpec;
