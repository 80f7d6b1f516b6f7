import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/openapi/document.ts';
import { type RouteId, routeList, routes } from '../../shared/routes.ts';
import type { TestApp } from '../support/app.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { documentedResponse, schemaValidator, validatorCache } from '../support/openapi.ts';
import {
  deviceAdministrationAndTeardownPaths,
  mcpPaths,
  signInSessionAndManagementPaths,
  startBatteryHosts,
} from '../support/route-battery.ts';
import { routeOf } from '../support/touched-keys.ts';

/**
 * docs/openapi.md, "How it is checked": the answers the service gives are the answers its OpenAPI description
 * documents. The route battery (test/support/route-battery.ts, shared with the item-family check)
 * reaches every route; a few refusals in each error style follow. Every answer is recorded
 * (route, status, media type, body) and checked against the document `GET /openapi.json` served:
 * the status is documented for the route, the media type is one it lists, and a JSON body
 * validates against its schema (JSON Schema 2020-12, Ajv).
 */
type Json = Record<string, unknown>;

interface Recorded {
  readonly route: RouteId;
  readonly request: string;
  readonly status: number;
  readonly mediaType: string;
  readonly response: TestResponse;
}

const recorded: Recorded[] = [];
let hosts: Awaited<ReturnType<typeof startBatteryHosts>>;
let real: TestApp;
let app: TestApp;

beforeAll(async () => {
  hosts = await startBatteryHosts();
  real = hosts.real;
  app = {
    ...real,
    request: async (method, path, options) => {
      const response = await real.request(method, path, options);
      const route = routeOf(method, path);
      if (!route) throw new Error(`no route serves ${method} ${path}`);
      const contentType = String(response.headers['content-type'] ?? '');
      const mediaType = contentType.split(';')[0]?.trim() ?? '';
      recorded.push({ route, request: `${method} ${path}`, status: response.status, mediaType, response });
      return response;
    },
  };
});
afterAll(() => hosts?.close());

/** Whether a documented media type (possibly a range, `image/*`) covers the answer's. */
const covers = (documented: string, actual: string): boolean =>
  documented === actual || (documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1)));

describe('the answers of the HTTP tests against their documented schemas', () => {
  it('GET /openapi.json serves the document of this deployment, cacheable', async () => {
    // Act
    const response = await app.request('GET', '/openapi.json');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.body).toEqual(
      openApiDocument({ serverUrl: real.deps.config.ISSUER, serviceName: real.deps.config.SERVICE_NAME }),
    );
  });

  it('records the route battery and refusals in every error style', async () => {
    // Act
    await signInSessionAndManagementPaths({ ...hosts, app });
    await deviceAdministrationAndTeardownPaths({ ...hosts, app });
    await mcpPaths({ ...hosts, app });
    const refusals = [
      // The platform envelope: a body that is not valid, a missing credential.
      await app.request('POST', '/auth/code/verify', { body: { email: 'x' }, ip: freshIp() }),
      await app.request('GET', '/auth/list-sessions'),
      // RFC 6749: a grant the endpoint does not know.
      await app.request('POST', '/oauth/token', {
        body: 'grant_type=password',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ip: freshIp(),
      }),
      // JSON-RPC: the MCP endpoint without its access token.
      await app.request('POST', '/mcp/app_unknown', {
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      }),
      // An HTML error page: the bridge's sign-in start with no form.
      await app.request('POST', '/oauth/login', {
        body: 'request=unknown',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        ip: freshIp(),
      }),
    ];

    // Assess
    expect(refusals.map((response) => response.status)).toEqual([400, 401, 400, 401, 400]);
    expect(new Set(recorded.map((answer) => answer.route)).size).toBe(routeList.length);
    // Many requests in a row: on a loaded machine more than the 30 s default (vitest.config.ts).
  }, 120_000);

  it('each recorded answer has a documented status, media type and, for JSON, a body its schema accepts', async () => {
    // Prepare
    const served = (await real.request('GET', '/openapi.json')).body as Json;
    const compile = validatorCache(schemaValidator());

    // Act
    const mismatches = recorded.flatMap((answer) => {
      const where = `${answer.request} → ${answer.status} ${answer.mediaType}`;
      const documented = documentedResponse(served, routes[answer.route], answer.status);
      if (!documented) return [`${where}: status not documented`];
      const content = (documented.content ?? {}) as Record<string, { schema: Json }>;
      const types = Object.keys(content);
      // An empty answer (204, 302, 303, 304) documents no content.
      if (answer.response.bytes.length === 0 && types.length === 0) return [];
      const mediaType = types.find((type) => covers(type, answer.mediaType));
      if (!mediaType) return [`${where}: media type not documented (${types.join(', ')})`];
      if (answer.mediaType !== 'application/json') return [];
      const validate = compile((content[mediaType] as { schema: Json }).schema);
      return validate(answer.response.body) ? [] : [`${where}: ${JSON.stringify(validate.errors)}`];
    });

    // The headers the service sets are documented for that status, and a required one is always sent.
    const watched = ['location', 'retry-after', 'set-auth-token', 'www-authenticate'];
    const headerMismatches = recorded.flatMap((answer) => {
      const where = `${answer.request} → ${answer.status}`;
      const documented = (documentedResponse(served, routes[answer.route], answer.status)?.headers ??
        {}) as Record<string, { required?: boolean }>;
      const names = new Map(Object.entries(documented).map(([name, spec]) => [name.toLowerCase(), spec]));
      const sent = watched.filter((name) => answer.response.headers[name] !== undefined);
      return [
        ...sent.filter((name) => !names.has(name)).map((name) => `${where}: ${name} not documented`),
        ...[...names]
          .filter(([name, spec]) => spec.required && watched.includes(name) && !sent.includes(name))
          .map(([name]) => `${where}: documented ${name} not sent`),
      ];
    });

    // Assess
    expect(recorded.length).toBeGreaterThan(routeList.length);
    expect(mismatches).toEqual([]);
    expect(headerMismatches).toEqual([]);
    // Every style of error answer was among them.
    const errorStyles = new Set(
      recorded.filter((answer) => answer.status >= 400).map((answer) => routes[answer.route].errorStyle),
    );
    expect([...errorStyles].sort()).toEqual(['app', 'html', 'mcp', 'oauth']);
    // The check can fail: answers are closed objects, so a field the contract does not name is refused.
    const session = recorded.find((answer) => answer.route === 'session' && answer.status === 200);
    const sessionSchema = documentedResponse(served, routes.session, 200)?.content as Record<
      string,
      { schema: Json }
    >;
    const validate = compile(sessionSchema['application/json']?.schema ?? {});
    expect(validate(session?.response.body)).toBe(true);
    expect(validate({ ...session?.response.body, leaked: 'secret' })).toBe(false);
  });
});
