import { SocialPagePath, SocialStartQuery } from '../../contracts/social.ts';
import type { RouteSpec } from '../../route-spec.ts';

// The application's own sign-in page: its providers and the browser's recent accounts of it,
// whose signed cookie needs the code-hash key.
export const socialPage = {
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
} as const satisfies RouteSpec;
