import { NoBody } from '../../contracts/common.ts';
import type { RouteSpec } from '../../route-spec.ts';

/** CORS preflight for every path (API Gateway prefers a route with the request's own method). */
export const preflight = {
  method: 'OPTIONS',
  path: '/{proxy+}',
  entry: 'functions/http/preflight.ts',
  description:
    'The CORS preflight of every path. A browser sends it by itself before a cross-origin request ' +
    'that is not simple; no client calls it. `/{proxy+}` is the API Gateway route of every path ' +
    '(a greedy path: any number of segments), not an OpenAPI path template, which matches one ' +
    'segment: this entry names the route, not a URL to call. With an `Origin` the answer allows ' +
    'the methods and request headers of every route for 10 minutes (docs/api.md, Endpoints: CORS).',
  errorStyle: 'app',
  auth: 'none',
  access: {},
  contract: { responses: { 204: NoBody }, errors: [] },
} as const satisfies RouteSpec;
