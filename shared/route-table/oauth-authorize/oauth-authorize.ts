import { NoBody } from '../../contracts/common.ts';
import { AuthorizeQuery } from '../../contracts/oauth-authorize.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { bySession } from '../item-families.ts';
import { html } from './common.ts';

export const oauthAuthorize = {
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
} as const satisfies RouteSpec;
