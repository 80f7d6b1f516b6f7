import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { OPENAPI_DOC, renderOpenApi } from '../../scripts/openapi.ts';
import { openApiDocument } from '../../shared/openapi/document.ts';
import { routeList, type routes } from '../../shared/routes.ts';
import { documentedResponse, schemaValidator } from '../support/openapi.ts';

type Json = Record<string, unknown>;

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
    const table = routeList.map((route) => `${route.method} ${route.path}`).sort();

    // Act
    const documented = operations(document).map(([method, path]) => `${method.toUpperCase()} ${path}`);

    // Assess
    expect(documented.sort()).toEqual(table);
    expect(
      operations(document)
        .map(([, , operation]) => operation.operationId)
        .sort(),
    ).toEqual(routeList.map((route) => route.id).sort());
  });

  it('names the credentials of each auth mode, the cookie by the service name', () => {
    // Prepare
    const security = (route: (typeof routeList)[number]) =>
      (operations(document).find(
        ([method, path]) => method === route.method.toLowerCase() && path === route.path,
      )?.[2].security ?? []) as Json[];
    const schemes = (document.components as { securitySchemes: Record<string, Json> }).securitySchemes;

    // Assess
    expect(schemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'acme-auth.session_token',
    });
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    for (const route of routeList) {
      const requirements = security(route);
      const anonymous = requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0);
      const mayBeAnonymous = [
        'none',
        'key-optional',
        'session-optional',
        'sign-out',
        'impersonation',
        'platform-cookie',
      ];
      expect(anonymous, route.id).toBe(mayBeAnonymous.includes(route.auth) && route.id !== 'mcp');
    }
    expect(
      security(routeList.find((route) => route.id === 'codePeek') as (typeof routeList)[number]),
    ).toEqual([{ apiKey: [] }]);
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
});

describe('docs/openapi.json', () => {
  it('is the current generation (npm run docs:openapi)', () => {
    expect(readFileSync(OPENAPI_DOC, 'utf8')).toBe(renderOpenApi());
  });
});
