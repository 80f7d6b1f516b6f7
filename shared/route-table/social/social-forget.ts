import { NoBody } from '../../contracts/common.ts';
import { SocialForgetForm, SocialPagePath } from '../../contracts/social.ts';
import { bodyErrors, type RouteSpec } from '../../route-spec.ts';

// The page's Forget button: from the service's own page only (the sign-in bridge's Origin rule).
export const socialForget = {
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
} as const satisfies RouteSpec;
