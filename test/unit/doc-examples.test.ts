import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/v4/core';
import { AppError } from '../../shared/errors.ts';
import { bodyText, parseForm } from '../../shared/http/body.ts';
import { openApiDocument } from '../../shared/openapi/document.ts';
import { exampleOf } from '../../shared/openapi/examples.ts';
import { type AuthMode, type RouteSpec, routeList } from '../../shared/routes.ts';
import { type Example, requestExamples, urlParts } from '../support/doc-requests.ts';

/**
 * Every request the docs show is checked against its route's contract (shared/routes.ts), so an
 * example cannot drift from the interface: each `curl` call to the service in a shell block of
 * README.md or docs/*.md, and each ```http request block. The method and path name the route (as
 * API Gateway matches it); the body goes through the chain's own media-type check and parser
 * (shared/http/body.ts) and the route's zod schema, the query and path parameters through theirs;
 * a route that needs a credential is shown with one. A shell variable (`$APP`, `$DEVICE`) stands
 * for a value the service handed out earlier: it is checked as the OpenAPI document's example of
 * that field (shared/openapi/examples.ts).
 */
type Route = RouteSpec & { readonly id: string };
type Json = Record<string, unknown>;

/** Where a curl call goes: the service (locally or deployed) under these bases, or somewhere else. */
const SERVICE_BASES = [
  // An HTTP request line: a path alone.
  /^$/,
  /^\$BASE$/,
  /^\$API$/,
  /^(http:\/\/)?(localhost|127\.0\.0\.1):3000$/,
  /^\$\(aws cloudformation describe-stacks /,
];

/** The auth modes whose routes refuse a request without a credential (shared/auth-modes.ts). */
const needsCredential: Readonly<Record<AuthMode, boolean>> = {
  none: false,
  'key-optional': false,
  'secret-key': true,
  'api-key': true,
  session: true,
  'session-optional': false,
  'sign-out': false,
  manage: true,
  impersonation: false,
  'platform-cookie': false,
};
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'cookie'];

/** The route API Gateway picks for a method and path: a literal segment wins over a template. */
function routeOf(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  const segments = path.split('/').slice(1);
  const matches = routeList.flatMap((route) => {
    const template = route.path.split('/').slice(1);
    if (route.method !== method || template.length !== segments.length) return [];
    const params: Record<string, string> = {};
    for (const [index, part] of template.entries()) {
      const segment = segments[index] as string;
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name) params[name] = segment;
      else if (part !== segment) return [];
    }
    return [{ route, params, literal: template.filter((part) => !part.startsWith('{')).length }];
  });
  return matches.sort((a, b) => b.literal - a.literal)[0];
}

const document = openApiDocument({ serverUrl: 'http://127.0.0.1:3000', serviceName: 'doorcode' });
const operationOf = (route: Route) =>
  (document.paths[route.path] as Record<string, Json>)[route.method.toLowerCase()] as Json;

const isVariable = (value: unknown): value is string =>
  typeof value === 'string' && /^\$\{?\w+\}?$/.test(value);

/** A value with each shell variable replaced by the example of its field. */
function substituted(value: unknown, example: unknown): unknown {
  if (isVariable(value)) return example;
  if (Array.isArray(value))
    return value.map((item, index) => substituted(item, Array.isArray(example) ? example[index] : undefined));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        substituted(item, (example as Json | undefined)?.[key]),
      ]),
    );
  return value;
}

/** The parameters of one place (`path`, `query`) with variables replaced by their schema's example. */
function parametersIn(
  route: Route,
  where: 'path' | 'query',
  values: Record<string, string>,
): Record<string, unknown> {
  const declared = (
    (operationOf(route).parameters ?? []) as Array<{ name: string; in: string; schema: Json }>
  ).filter((parameter) => parameter.in === where);
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const schema = declared.find((parameter) => parameter.name === name)?.schema ?? {};
      return [name, isVariable(value) ? exampleOf(schema, name) : value];
    }),
  );
}

const issuesOf = (schema: Parameters<typeof safeParse>[0], value: unknown): string[] => {
  const parsed = safeParse(schema, value);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
};

/** What is wrong with an example, each as a sentence; empty when the contract accepts it. */
function problemsOf(example: Example, route: Route, params: Record<string, string>, query: string): string[] {
  const { contract } = route;
  const problems: string[] = [];
  if (needsCredential[route.auth] && !CREDENTIAL_HEADERS.some((name) => example.headers[name] !== undefined))
    problems.push(`shows no credential, and auth '${route.auth}' refuses a request without one`);
  if (contract.params)
    problems.push(
      ...issuesOf(contract.params, parametersIn(route, 'path', params)).map((issue) => `path ${issue}`),
    );
  const queryValues = Object.fromEntries(new URLSearchParams(query));
  if (contract.query)
    problems.push(
      ...issuesOf(contract.query, parametersIn(route, 'query', queryValues)).map((issue) => `query ${issue}`),
    );
  else if (query) problems.push(`sends a query, and the route takes none`);
  const spec = contract.body;
  if (example.body === undefined) {
    if (spec) problems.push('sends no body, and the route requires one');
    return problems;
  }
  if (!spec) return [...problems, 'sends a body, and the route takes none'];
  let text: string;
  try {
    // curl sends `-d` as a form unless told otherwise.
    const contentType = example.headers['content-type'] ?? 'application/x-www-form-urlencoded';
    text = bodyText({ body: example.body, headers: { 'content-type': contentType } } as never, spec);
  } catch (error) {
    return [
      ...problems,
      `body refused before its schema: ${error instanceof AppError ? `${error.code} ${error.message}` : String(error)}`,
    ];
  }
  const parsed = 'form' in spec ? parseForm(text) : (JSON.parse(text) as unknown);
  const content = ((operationOf(route).requestBody as Json).content ?? {}) as Record<
    string,
    { example?: unknown }
  >;
  const body = substituted(parsed, Object.values(content)[0]?.example);
  problems.push(...issuesOf('form' in spec ? spec.form : spec.json, body).map((issue) => `body ${issue}`));
  return problems;
}

const examples = requestExamples();
const toService = examples.filter((example) =>
  SERVICE_BASES.some((base) => base.test(urlParts(example.url).base)),
);

describe('the request examples of the docs', () => {
  it('are found in README.md and docs/*.md, and only those not to the service are left out', () => {
    // Assess: the calls that go elsewhere, by name, so a new one shows up here.
    const elsewhere = examples
      .filter((example) => !toService.includes(example))
      .map((example) => example.url);
    expect(elsewhere).toEqual(['http://127.0.0.1:4000/api/me', 'http://127.0.0.1:4000/api/me']);
    expect(toService.length).toBeGreaterThan(30);
    expect(toService.filter((example) => example.body !== undefined).length).toBeGreaterThan(20);
  });

  it("each name a route and are accepted by its contract (docs/api.md's and the quick starts' calls)", () => {
    // Act
    const refused = toService.flatMap((example) => {
      const { path, query } = urlParts(example.url);
      const found = routeOf(example.method, path);
      if (!found) return [`${example.where} ${example.method} ${path}: no route`];
      return problemsOf(example, found.route, found.params, query).map(
        (problem) => `${example.where} ${example.method} ${found.route.path}: ${problem}`,
      );
    });

    // Assess
    expect(refused).toEqual([]);
  });

  it('refuses an example its contract refuses', () => {
    // Prepare: the verify of docs/api.md with a code of the wrong shape, no media type, no credential.
    const verify = toService.find(
      (example) => example.url.endsWith('/auth/code/verify') && example.body,
    ) as Example;
    const organizations = toService.find(
      (example) => example.method === 'POST' && urlParts(example.url).path === '/organizations',
    ) as Example;
    const check = (example: Example) => {
      const { path, query } = urlParts(example.url);
      const found = routeOf(example.method, path);
      return found ? problemsOf(example, found.route, found.params, query) : ['no route'];
    };

    // Act
    const wrongCode = check({ ...verify, body: '{"email":"ops@acme.com","code":"0"}' });
    const noMediaType = check({ ...verify, headers: {} });
    const noCredential = check({ ...organizations, headers: { 'content-type': 'application/json' } });
    const noRoute = check({ ...verify, url: '$BASE/auth/code/verify-it' });

    // Assess
    expect(wrongCode).toEqual([expect.stringMatching(/^body code: /)]);
    expect(noMediaType).toEqual([
      expect.stringMatching(/^body refused before its schema: UNSUPPORTED_MEDIA_TYPE/),
    ]);
    expect(noCredential).toEqual(["shows no credential, and auth 'manage' refuses a request without one"]);
    expect(noRoute).toEqual(['no route']);
  });
});
