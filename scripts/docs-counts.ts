/**
 * How big the service is, counted from the route table (shared/routes.ts): routes, functions,
 * access profiles and the CloudFormation resources they make. A region of scripts/docs.ts.
 */
import { accessProfileKey } from '../lib/access-profile.ts';
import { routeList } from '../shared/routes.ts';

/**
 * What the stack's template holds, as a formula over the route table: `fixed` resources whatever
 * the routes (`customDomain` more with a `domain`), `perRoute` for each route (its function, Lambda
 * permission, integration and API route) and `perProfile` for each access profile (its role, whose
 * policy is inline). test/infra/resource-budget.test.ts measures each term on synthesized templates,
 * and that the whole table's template holds exactly what the formula says.
 */
export const STACK_RESOURCES = {
  fixed: 26,
  customDomain: 2,
  perRoute: 4,
  perExtraPath: 1,
  perProfile: 1,
} as const;

/** The paths a route answers besides its own (`alsoAt`): each is one more API route key. */
export const extraPaths = (routes: readonly { alsoAt?: readonly string[] }[]): number =>
  routes.reduce((sum, route) => sum + (route.alsoAt?.length ?? 0), 0);

/** The service's size, counted from the route table. */
function serviceCounts() {
  const routes = routeList.length;
  const profiles = new Set(routeList.map((route) => accessProfileKey(route.access))).size;
  const { fixed, perRoute, perExtraPath, perProfile } = STACK_RESOURCES;
  const extra = extraPaths(routeList);
  return {
    routes,
    // And the statistics aggregator, which is no route (lib/statistics-aggregator.ts).
    functions: routes + 1,
    roles: profiles + 1,
    extra,
    profiles,
    resources: fixed + perRoute * routes + perExtraPath * extra + perProfile * profiles,
  };
}

export function renderCounts(): string {
  const { routes, functions, roles, extra, profiles, resources } = serviceCounts();
  const { fixed, customDomain, perRoute, perExtraPath, perProfile } = STACK_RESOURCES;
  return [
    `- **${routes} routes**, each its own Lambda function, and the statistics aggregator: **${functions} functions**.`,
    `- **${profiles} access profiles**: one IAM role each, shared by the functions whose routes declare the same access, and the aggregator's: **${roles} roles**.`,
    `- **${resources} CloudFormation resources** without a custom domain (${resources + customDomain} with one): ` +
      `${fixed} fixed, ${perRoute} per route (function, Lambda permission, integration, API route), ` +
      `${perExtraPath} per further path a route answers (its API route; ${extra} today) and ` +
      `${perProfile} per access profile (its role), of the 500 CloudFormation allows in one stack.`,
  ].join('\n');
}
