/**
 * The OpenAPI tags of the route table (docs/openapi.md): one area per file of shared/route-table/,
 * named and described here, so the document groups its operations as the table does. Kept out of
 * shared/routes.ts: no route's bundle needs it but the one serving the document.
 */
import type { RouteSpec } from '../route-spec.ts';
import { apiKeyRoutes } from '../route-table/api-keys.ts';
import { applicationRoutes } from '../route-table/applications.ts';
import { auditRoutes } from '../route-table/audit.ts';
import { configurationRoutes } from '../route-table/configuration.ts';
import { dashboardRoutes } from '../route-table/dashboard.ts';
import { impersonationRoutes } from '../route-table/impersonation.ts';
import { mcpRoutes } from '../route-table/mcp.ts';
import { oauthAuthorizeRoutes } from '../route-table/oauth-authorize.ts';
import { oauthDiscoveryRoutes } from '../route-table/oauth-discovery.ts';
import { oauthTokenRoutes } from '../route-table/oauth-token.ts';
import { organizationRoutes } from '../route-table/organizations.ts';
import { recentAccountRoutes } from '../route-table/recent-accounts.ts';
import { serviceRoutes } from '../route-table/service.ts';
import { sessionRoutes } from '../route-table/sessions.ts';
import { signInRoutes } from '../route-table/sign-in.ts';
import { socialRoutes } from '../route-table/social.ts';
import { statisticsRoutes } from '../route-table/statistics.ts';
import { tenantOrganizationRoutes } from '../route-table/tenant-organizations.ts';
import { userRoutes } from '../route-table/users.ts';

interface RouteArea {
  /** The OpenAPI tag of its operations. */
  readonly tag: string;
  readonly description: string;
  readonly routes: Readonly<Record<string, RouteSpec>>;
}

/**
 * The areas in table order. The route checklist (test/unit/route-checklist.test.ts) names a route in
 * no area, or in two.
 */
export const routeAreas: readonly RouteArea[] = [
  {
    tag: 'Service',
    description: 'Health, the signing keys, this description and the CORS preflight.',
    routes: serviceRoutes,
  },
  {
    tag: 'Sign-in',
    description:
      'Sign-in by emailed code, and the headless path for agents: start, approve, poll (docs/api.md, The headless path and the request phrase).',
    routes: signInRoutes,
  },
  {
    tag: 'Sessions',
    description: "The signed-in user's session, sessions and profile, and the profile images it uploads.",
    routes: sessionRoutes,
  },
  {
    tag: 'Organizations',
    description: 'Platform organizations, their members and invitations (docs/api.md, Organizations).',
    routes: organizationRoutes,
  },
  {
    tag: 'Applications',
    description:
      "An organization's applications: the products whose end users sign in (docs/api.md, Applications).",
    routes: applicationRoutes,
  },
  {
    tag: 'API keys',
    description: "An application's public and secret keys (docs/api.md, API keys).",
    routes: apiKeyRoutes,
  },
  {
    tag: 'Statistics',
    description: "An application's users, sign-ins and sessions by day (docs/api.md, Insights: statistics).",
    routes: statisticsRoutes,
  },
  {
    tag: 'Impersonation',
    description:
      "A support user acting as one of an application's end users for 15 minutes, with a reason (docs/api.md, Impersonation).",
    routes: impersonationRoutes,
  },
  {
    tag: 'Audit',
    description: 'The append-only trails of organizations and applications (docs/api.md, Audit trail).',
    routes: auditRoutes,
  },
  {
    tag: 'Users',
    description:
      "An application's end users, as its managers and its secret key see them (docs/api.md, Application users and tenant organizations).",
    routes: userRoutes,
  },
  {
    tag: 'Tenant organizations',
    description:
      "An application's own organizations of end users and their members (docs/api.md, Tenant organizations).",
    routes: tenantOrganizationRoutes,
  },
  {
    tag: 'Configuration',
    description:
      "An application's configuration document: origin, OAuth resources, social sign-in (docs/api.md, Configuration and origin learning).",
    routes: configurationRoutes,
  },
  {
    tag: 'OAuth discovery',
    description:
      'RFC 8414 and RFC 9728 metadata: how an MCP client finds out how to get a token (docs/oauth.md).',
    routes: oauthDiscoveryRoutes,
  },
  {
    tag: 'MCP',
    description: "Each application's MCP server, Streamable HTTP answered in JSON (docs/mcp.md).",
    routes: mcpRoutes,
  },
  {
    tag: 'OAuth tokens',
    description: "The OAuth 2.1 token and revocation endpoints, and the user's connections (docs/oauth.md).",
    routes: oauthTokenRoutes,
  },
  {
    tag: 'OAuth authorization',
    description:
      'The browser side of the authorization code flow: the authorization endpoint, the sign-in bridge and consent (HTML pages).',
    routes: oauthAuthorizeRoutes,
  },
  {
    tag: 'Recent accounts',
    description: "The browser's accounts that signed in on the service's own pages, kept in a signed cookie.",
    routes: recentAccountRoutes,
  },
  {
    tag: 'Social sign-in',
    description:
      "An application's end users signing in with Google, GitHub, Microsoft or OpenID Connect through the owner's OAuth client (docs/social-sign-in.md).",
    routes: socialRoutes,
  },
  {
    tag: 'Dashboard',
    description:
      'The owner dashboard: a web console over this API, served by the service itself (docs/dashboard.md).',
    routes: dashboardRoutes,
  },
];
