/**
 * The service itself: the CORS preflight, health, the signing keys and the interface description
 * (docs/api.md "Endpoints"). Spread into the one table (shared/routes.ts).
 */
import { NoBody } from '../contracts/common.ts';
import { Jwks, Root, StatusReport } from '../contracts/health.ts';
import { OpenApiDocument } from '../contracts/openapi.ts';
import type { RouteSpec } from '../route-spec.ts';

export const serviceRoutes = {
  /** CORS preflight for every path (API Gateway prefers a route with the request's own method). */
  preflight: {
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
  },
  root: {
    method: 'GET',
    path: '/',
    entry: 'functions/health/root.ts',
    description: "Say the service is up. Always 200 while it runs, with the service's name and the time.",
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: Root }, errors: [] },
  },
  status: {
    method: 'GET',
    path: '/status',
    entry: 'functions/health/status.ts',
    description:
      'Check the database and the signing keys. Always 200: a failed check is `down`, one slower ' +
      'than 400 ms `degraded`, each with its latency.',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'read', publicKeys: true, items: ['health'] },
    contract: { responses: { 200: StatusReport }, errors: [] },
  },
  jwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    entry: 'functions/well-known/jwks.ts',
    description:
      'Publish the public keys that verify session and access tokens. Every configured key, the ' +
      'active one first; `kid` is its RFC 7638 thumbprint. Cacheable for an hour.',
    errorStyle: 'app',
    auth: 'none',
    access: { publicKeys: true },
    contract: { responses: { 200: Jwks }, errors: [] },
  },
  /** The OpenAPI 3.1.0 description generated from this table (shared/openapi/; docs/openapi.md). */
  openApi: {
    method: 'GET',
    path: '/openapi.json',
    entry: 'functions/docs/openapi.ts',
    description:
      "Describe this deployment's interface. This OpenAPI 3.1.0 document, generated from the route " +
      'table, with this deployment as its server and its session cookie names (docs/openapi.md).',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: OpenApiDocument }, errors: [] },
  },
} as const satisfies Record<string, RouteSpec>;
