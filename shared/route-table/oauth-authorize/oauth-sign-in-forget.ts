import { NoBody } from '../../contracts/common.ts';
import { SignInBridgeForgetForm } from '../../contracts/oauth-authorize.ts';
import { bodyErrors, type RouteSpec } from '../../route-spec.ts';

// The email page's "Forget" button of a recent account, a plain form (no script).
export const oauthSignInForget = {
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
} as const satisfies RouteSpec;
