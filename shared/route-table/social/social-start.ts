import { NoBody } from '../../contracts/common.ts';
import { SocialPath, SocialStartQuery } from '../../contracts/social.ts';
import { CODE_CHECK_THROTTLE, type RouteSpec } from '../../route-spec.ts';

export const socialStart = {
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
} as const satisfies RouteSpec;
