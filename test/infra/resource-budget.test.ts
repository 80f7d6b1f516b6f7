import { describe, expect, it } from 'vitest';
import type { DoorcodeInputs } from '../../lib/inputs.ts';
import { extraPaths, STACK_RESOURCES } from '../../scripts/docs-counts.ts';
import { routeList } from '../../shared/routes.ts';
import { routesByProfile, synthDoorcode } from './synth.ts';

/** CloudFormation's hard limit of resources in one stack. */
const STACK_RESOURCE_LIMIT = 500;
/**
 * The routes the stack is planned for (docs/deploy.md, "What the stack creates"): the management API,
 * OAuth (revocation included), MCP, social sign-in, the audit trails and the organizations'
 * invitations, and the owner dashboard.
 */
const PLANNED_ROUTES = 91;
/** Distinct access profiles planned among them (seal=encrypt and seal=decrypt are two; docs/deploy.md has today's count). */
const PLANNED_PROFILES = 15;
/**
 * Headroom kept below the limit for fixed resources still to come (a WAF ...); lib/alarms.ts is a
 * fixed set already counted. It was 100: the secrets key it kept room for (the sealing key of
 * lib/sealing-key.ts: docs/security.md, "Provider client secrets") has since taken one, and the
 * revocation route's role of its own another (docs/security.md, "Where it cannot be narrowed"), and
 * the owner dashboard's route six: its function, permission, integration and API route, the API route
 * of its second path, and its role of its own (docs/dashboard.md), and the statistics aggregator five:
 * its function, role, stream grant, event source mapping and lag alarm (docs/data-model.md, Statistics).
 */
const MARGIN = 87;
/** `cdk synth` adds AWS::CDK::Metadata (version reporting), which assertion templates leave out. */
const CLI_METADATA = 1;
/** What one more route costs: its function, its Lambda permission, its integration and its API route. */
const PINNED_PER_ROUTE = 4;
/** What one more path of a route costs (`alsoAt`): its API route; the integration and permission are the route's. */
const PINNED_PER_EXTRA_PATH = 1;
/** The further paths planned: the dashboard's `/dashboard` beside its `/dashboard/{proxy+}`. */
const PLANNED_EXTRA_PATHS = 1;
/** What one more access profile costs: its role, whose policy is inline. */
const PINNED_PER_PROFILE = 1;

const customDomain: Partial<DoorcodeInputs> = {
  domain: 'auth.example.com',
  certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab',
};

type Routes = typeof routeList;
const resourceCount = (routes: Routes, inputs: Partial<DoorcodeInputs> = {}) =>
  Object.keys(synthDoorcode(inputs, routes).resources).length;

// Measured, not assumed: one route, two routes of one profile, two routes of two profiles. What is
// fixed is what every stack with a route holds: a stack without any also lacks the metric filter on
// the functions' shared log group (lib/alarms.ts), which comes with the first function.
const [first, second] = [...routesByProfile(routeList).values()].find((members) => members.length > 1)!;
const other = routeList.find((route) => routesByProfile([first!, route]).size === 2)!;
const oneRoute = resourceCount([first!]);
const perRoute = resourceCount([first!, second!]) - oneRoute;
const perProfile = resourceCount([first!, other]) - oneRoute - perRoute;
const fixed = oneRoute - perRoute - perProfile;
const fixedWithDomain = resourceCount([first!], customDomain) - perRoute - perProfile;
const withPath = { ...first!, path: `${first!.path}/{proxy+}`, alsoAt: [first!.path] };
const perExtraPath = resourceCount([withPath]) - oneRoute;

/** What the formula says a stack of `routes` holds. */
const projected = (routes: Routes, base = fixed) =>
  base +
  perRoute * routes.length +
  perExtraPath * extraPaths(routes) +
  perProfile * routesByProfile(routes).size;

describe('resource budget (the whole service fits one stack)', () => {
  it(`adds ${PINNED_PER_ROUTE} resources per route, ${PINNED_PER_EXTRA_PATH} per further path and ${PINNED_PER_PROFILE} per access profile`, () => {
    expect(perRoute).toBe(PINNED_PER_ROUTE);
    expect(perExtraPath).toBe(PINNED_PER_EXTRA_PATH);
    expect(perProfile).toBe(PINNED_PER_PROFILE);
  });

  it('is the formula docs/deploy.md states (scripts/docs-counts.ts, npm run docs)', () => {
    expect({ fixed, customDomain: fixedWithDomain - fixed, perRoute, perExtraPath, perProfile }).toEqual(
      STACK_RESOURCES,
    );
  });

  it('counts the real route table as fixed + perRoute * routes + perProfile * profiles', () => {
    expect(routeList.length).toBeLessThanOrEqual(PLANNED_ROUTES);
    expect(extraPaths(routeList)).toBeLessThanOrEqual(PLANNED_EXTRA_PATHS);
    expect(resourceCount(routeList)).toBe(projected(routeList));
    expect(resourceCount(routeList, customDomain)).toBe(projected(routeList, fixedWithDomain));
    const everyOther = routeList.filter((_, index) => index % 2 === 0);
    expect(resourceCount(everyOther)).toBe(projected(everyOther));
  });

  it(`projects ${PLANNED_ROUTES} routes in ${PLANNED_PROFILES} profiles under ${STACK_RESOURCE_LIMIT} with ${MARGIN} to spare`, () => {
    const total =
      Math.max(fixed, fixedWithDomain) +
      CLI_METADATA +
      perRoute * PLANNED_ROUTES +
      perExtraPath * PLANNED_EXTRA_PATHS +
      perProfile * PLANNED_PROFILES;
    expect(total).toBeLessThanOrEqual(STACK_RESOURCE_LIMIT - MARGIN);
  });
});
