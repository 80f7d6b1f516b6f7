/**
 * The one route table. Data only: the CDK stack (lib/) creates one Lambda function per entry with
 * IAM grants derived from `access`; the local server (shared/local/) serves the same entries by
 * calling the same exported handlers; the shared chain (shared/http/) authenticates the caller from
 * `auth`, validates path, query and body from `contract`, builds the answer from its declared
 * response schema and serializes errors in the route's `errorStyle`.
 *
 * Each entry is a module of its own (shared/route-table/<area>/<route>.ts), listed by its area's table
 * (shared/route-table/<area>.ts): a handler imports its own entry's module, never this table, so its
 * bundle holds no other entry (test/infra/bundle-access.test.ts).
 */
import type { RouteSpec } from './route-spec.ts';
import { apiKeyRoutes } from './route-table/api-keys.ts';
import { applicationRoutes } from './route-table/applications.ts';
import { auditRoutes } from './route-table/audit.ts';
import { configurationRoutes } from './route-table/configuration.ts';
import { dashboardRoutes } from './route-table/dashboard.ts';
import { impersonationRoutes } from './route-table/impersonation.ts';
import { mcpRoutes } from './route-table/mcp.ts';
import { oauthAuthorizeRoutes } from './route-table/oauth-authorize.ts';
import { oauthDiscoveryRoutes } from './route-table/oauth-discovery.ts';
import { oauthTokenRoutes } from './route-table/oauth-token.ts';
import { organizationRoutes } from './route-table/organizations.ts';
import { recentAccountRoutes } from './route-table/recent-accounts.ts';
import { serviceRoutes } from './route-table/service.ts';
import { sessionRoutes } from './route-table/sessions.ts';
import { signInRoutes } from './route-table/sign-in.ts';
import { socialRoutes } from './route-table/social.ts';
import { statisticsRoutes } from './route-table/statistics.ts';
import { tenantOrganizationRoutes } from './route-table/tenant-organizations.ts';
import { userRoutes } from './route-table/users.ts';

export type {
  AccessProfile,
  AuthMode,
  BodySpec,
  ErrorStyle,
  RawResponse,
  RouteAccess,
  RouteSpec,
} from './route-spec.ts';

export { DEFAULT_THROTTLE, FUNCTION_TIMEOUT_SECONDS } from './route-spec.ts';

export const routes = {
  ...serviceRoutes,
  ...signInRoutes,
  ...sessionRoutes,
  ...organizationRoutes,
  ...applicationRoutes,
  ...apiKeyRoutes,
  ...statisticsRoutes,
  ...impersonationRoutes,
  ...auditRoutes,
  ...userRoutes,
  ...tenantOrganizationRoutes,
  ...configurationRoutes,
  ...oauthDiscoveryRoutes,
  ...mcpRoutes,
  ...oauthTokenRoutes,
  ...oauthAuthorizeRoutes,
  ...recentAccountRoutes,
  ...socialRoutes,
  ...dashboardRoutes,
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof routes;

/** Every route with its id, in table order. */
export const routeList: ReadonlyArray<RouteSpec & { readonly id: RouteId }> = (
  Object.keys(routes) as RouteId[]
).map((id) => ({ id, ...routes[id] }));
