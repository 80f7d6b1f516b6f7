import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/v4/core';
import { OPENAPI_DOC, renderOpenApi } from '../../scripts/openapi.ts';
import { openApiDocument } from '../../shared/openapi/document.ts';
import { routeList, type routes } from '../../shared/routes.ts';
import { documentedResponse, schemaValidator } from '../support/openapi.ts';

type Json = Record<string, unknown>;
const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

const document = openApiDocument({ serverUrl: 'https://auth.doorcode.test', serviceName: 'acme-auth' });
const operations = (doc: Json): Array<[string, string, Json]> =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, Json] => [method, path, operation]),
  );

describe('the OpenAPI description (shared/openapi/document.ts)', () => {
  it('validates as OpenAPI 3.1, and a document with an answer missing its description does not', async () => {
    // Prepare
    const broken = structuredClone(document) as { paths: Record<string, Record<string, Json>> };
    const answers = broken.paths['/auth/session']?.get?.responses as Record<string, Json>;
    delete answers['200']?.description;

    // Act
    const validator = new Validator();
    const result = await validator.validate(document);
    const brokenResult = await new Validator().validate(broken);

    // Assess
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(brokenResult.valid).toBe(false);
  });

  it('is OpenAPI 3.1.0 at interface version 1.0.0, served from the given URL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.servers).toEqual([{ url: 'https://auth.doorcode.test' }]);
  });

  it('holds every route of the table by method and path, and nothing else', () => {
    // Prepare
    // A route's further paths (`alsoAt`) are operations of their own, `<id>At<n>`.
    const table = routeList
      .flatMap((route) => [route.path, ...(route.alsoAt ?? [])].map((path) => `${route.method} ${path}`))
      .sort();

    // Act
    const documented = operations(document).map(([method, path]) => `${method.toUpperCase()} ${path}`);

    // Assess
    expect(documented.sort()).toEqual(table);
    expect(
      operations(document)
        .map(([, , operation]) => operation.operationId)
        .sort(),
    ).toEqual(
      routeList
        .flatMap((route) => [
          route.id,
          ...(route.alsoAt ?? []).map((_, index) => `${route.id}At${index + 1}`),
        ])
        .sort(),
    );
  });

  it('names the credentials of each auth mode exactly, the cookies by the service name', () => {
    // Prepare
    const security = (route: (typeof routeList)[number]) =>
      (operations(document).find(
        ([method, path]) => method === route.method.toLowerCase() && path === route.path,
      )?.[2].security ?? []) as Json[];
    const schemes = (document.components as { securitySchemes: Record<string, Json> }).securitySchemes;
    const bearer = { bearer: [] };
    const key = { apiKey: [] };
    const platformCookie = { sessionCookie: [] };
    const impersonationCookie = { impersonationCookie: [] };
    // With a key the service reads the application's cookie, never the platform one (resolve.ts).
    const session = [
      bearer,
      platformCookie,
      impersonationCookie,
      { ...bearer, ...key },
      { ...impersonationCookie, ...key },
    ];
    const expected: Record<string, Json[]> = {
      none: [],
      'key-optional': [{}, key],
      'secret-key': [key],
      'api-key': [key],
      session,
      'session-optional': [{}, ...session, key],
      'sign-out': [{}, bearer, platformCookie, { ...bearer, ...key }, key],
      manage: [...session, key],
      impersonation: [{}, bearer, impersonationCookie],
      'platform-cookie': [{}, platformCookie],
    };

    // Assess
    expect(schemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'acme-auth.session_token',
    });
    expect(schemes.impersonationCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'acme-auth.impersonation_token',
    });
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.apiKey?.description).toContain('acme-auth.session_token.<applicationId>');
    expect(schemes.apiKey?.description).toMatch(/`pu_…`.*`sk_…`/);
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const route of routeList) {
      const want =
        route.errorStyle === 'mcp' && route.method === 'POST'
          ? [{ oauthAccessToken: [] }]
          : expected[route.auth];
      expect(security(route), `${route.id} (${route.auth})`).toEqual(want);
    }
    // No platform cookie is paired with a key anywhere.
    const paired = operations(document).filter(([, , operation]) =>
      (operation.security as Json[]).some((r) => 'sessionCookie' in r && 'apiKey' in r),
    );
    expect(paired).toEqual([]);
  });

  it('documents each declared error with its status and catalogue code, in the route error style', () => {
    // Prepare
    const codesAt = (route: (typeof routeList)[number], status: number, media = 'application/json') => {
      const content = documentedResponse(document, route, status)?.content as Record<
        string,
        { schema: Json }
      >;
      return JSON.stringify(content?.[media]?.schema);
    };
    const byId = (id: keyof typeof routes) =>
      routeList.find((route) => route.id === id) as (typeof routeList)[number];

    // Assess: the platform envelope with the catalogue's codes.
    expect(codesAt(byId('codeVerify'), 400)).toContain('"enum":["VALIDATION_ERROR"]');
    expect(codesAt(byId('codeVerify'), 429)).toContain('"enum":["RATE_LIMITED","TOO_MANY_ATTEMPTS"]');
    expect(codesAt(byId('codeVerify'), 500)).toContain('INTERNAL_ERROR');
    expect(codesAt(byId('codePoll'), 428)).toContain('UNPROCESSABLE');
    // RFC 6749 for the token endpoint, JSON-RPC for MCP, pages for the bridge.
    expect(codesAt(byId('oauthToken'), 400)).toContain('"error_description"');
    expect(codesAt(byId('oauthToken'), 400)).toContain('"invalid_grant"');
    expect(codesAt(byId('oauthToken'), 401)).toContain('"enum":["invalid_client"]');
    expect(codesAt(byId('mcp'), 401)).toContain('"jsonrpc"');
    expect(codesAt(byId('oauthSignInVerify'), 410, 'text/html')).toBe('{"type":"string"}');
    // A route that declares no error still answers 500.
    expect(Object.keys(documentedResponse(document, byId('root'), 500) ?? {})).toContain('content');
    for (const route of routeList)
      for (const status of Object.keys(route.contract.responses))
        expect(documentedResponse(document, route, Number(status)), `${route.id} ${status}`).toBeDefined();
  });

  it('gives every JSON request and success answer an example its own schema accepts', () => {
    // Prepare
    const ajv = schemaValidator();
    const media = operations(document).flatMap(([method, path, operation]) => {
      const request = (operation.requestBody as { content?: Json } | undefined)?.content ?? {};
      const answers = Object.entries(operation.responses as Record<string, { content?: Json }>)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, answer]) => Object.entries(answer.content ?? {}));
      return [...Object.entries(request), ...answers]
        .filter(([type]) => type === 'application/json' || type === 'application/x-www-form-urlencoded')
        .map(([type, entry]) => ({
          where: `${method} ${path} ${type}`,
          ...(entry as { schema: Json; example?: unknown }),
        }))
        .filter((entry) => Object.keys(entry.schema).length > 0);
    });

    // Act
    const wrong = media.filter(
      (entry) => entry.example === undefined || !ajv.validate(entry.schema, entry.example),
    );

    // Assess
    expect(media.length).toBeGreaterThan(routeList.length / 2);
    expect(wrong.map((entry) => [entry.where, ajv.errorsText()])).toEqual([]);
  });

  it("documents API Gateway's throttle on every operation, a bodiless 304 and the headers the service sets", () => {
    // Prepare
    const byId = (id: keyof typeof routes) =>
      routeList.find((route) => route.id === id) as (typeof routeList)[number];
    const headersAt = (id: keyof typeof routes, status: number) =>
      Object.keys((documentedResponse(document, byId(id), status)?.headers ?? {}) as Json);

    // Assess
    for (const route of routeList) {
      const throttled = documentedResponse(document, route, 429)?.content as Record<string, { schema: Json }>;
      expect(JSON.stringify(throttled?.['application/json']?.schema), route.id).toContain(
        '"required":["message"]',
      );
    }
    expect(JSON.stringify(documentedResponse(document, byId('codeVerify'), 429))).toContain('RATE_LIMITED');
    expect(documentedResponse(document, byId('image'), 304)).not.toHaveProperty('content');
    for (const id of ['codeVerify', 'codePoll', 'refresh'] as const)
      expect(headersAt(id, 200)).toContain('set-auth-token');
    expect(headersAt('startImpersonation', 201)).toContain('set-auth-token');
    expect(headersAt('session', 200)).toEqual([]);
    expect(headersAt('codeVerify', 429)).toContain('Retry-After');
    expect(headersAt('oauthSignInVerify', 303)).toEqual(['Location', 'Set-Cookie']);
    expect(headersAt('mcp', 401)).toContain('WWW-Authenticate');
    expect(headersAt('oauthToken', 401)).toContain('WWW-Authenticate');
  });

  it("gives every request and success answer an example the route's own zod contract accepts", () => {
    // Prepare: the JSON Schema loses refinements (a code's alphabet, one of two fields), zod keeps them.
    const examples = routeList.flatMap((route) => {
      const operation = operations(document).find(
        ([method, path]) => method === route.method.toLowerCase() && path === route.path,
      )?.[2] as Json;
      const body = route.contract.body;
      const request = (
        operation.requestBody as { content?: Record<string, { example?: unknown }> } | undefined
      )?.content;
      const requests = body
        ? [
            {
              where: `${route.id} request`,
              schema: 'json' in body ? body.json : body.form,
              example: Object.values(request ?? {})[0]?.example,
            },
          ]
        : [];
      const answers = Object.entries(route.contract.responses).flatMap(([status, schema]) => {
        const content = (
          operation.responses as Record<string, { content?: Record<string, { example?: unknown }> }>
        )[status]?.content?.['application/json'];
        if ('raw' in schema || !status.startsWith('2') || content?.example === undefined) return [];
        return [{ where: `${route.id} ${status}`, schema, example: content.example }];
      });
      return [...requests, ...answers];
    });

    // Act
    const refused = examples
      .map((entry) => ({ ...entry, result: safeParse(entry.schema, entry.example) }))
      .filter((entry) => !entry.result.success)
      .map((entry) => [
        entry.where,
        entry.example,
        entry.result.error?.issues.map((issue) => issue.path.join('.')),
      ]);

    // Assess
    expect(examples.length).toBeGreaterThan(routeList.length / 2);
    expect(refused).toEqual([]);
  });

  it('shows plausible numbers: none beyond ±1e9, and the named intervals and lifetimes', () => {
    // Prepare: every number inside an `example`, by the field that holds it.
    const numbers: Array<[string, number]> = [];
    const inExample = (value: unknown, field: string): void => {
      if (typeof value === 'number') numbers.push([field, value]);
      else if (Array.isArray(value)) for (const item of value) inExample(item, field);
      else if (value && typeof value === 'object')
        for (const [key, item] of Object.entries(value)) inExample(item, key);
    };
    const findExamples = (value: unknown): void => {
      if (!value || typeof value !== 'object') return;
      for (const [key, item] of Object.entries(value)) {
        if (key === 'example') inExample(item, '');
        else findExamples(item);
      }
    };

    // Act
    findExamples(document.paths);
    const named = (field: string) =>
      unique(numbers.filter(([name]) => name === field).map(([, value]) => value));

    // Assess
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.filter(([, value]) => Math.abs(value) > 1e9)).toEqual([]);
    expect(named('interval')).toEqual([5]);
    expect(named('expiresIn')).toEqual([600]);
    expect(named('expires_in')).toEqual([3600]);
  });
});

describe('docs/openapi.json', () => {
  it('is the current generation (npm run docs:openapi)', () => {
    expect(readFileSync(OPENAPI_DOC, 'utf8')).toBe(renderOpenApi());
  });
});
