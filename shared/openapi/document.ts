/**
 * The OpenAPI 3.1.0 description of the service (docs/openapi.md), generated from the one
 * route table (shared/routes.ts) and the same zod schemas the chain validates with: no second copy.
 * Pure: no AWS, no clock, so `GET /openapi.json` serves it and `npm run docs:openapi` writes it.
 *
 * Requests are described as the client sends them (zod's `input` side), answers as the chain
 * builds them from the contract (`output` side: unknown fields are stripped, so objects are closed).
 */

import type * as mini from 'zod/mini';
import type * as z from 'zod/v4/core';
import type { OpenApiDocument } from '../contracts/openapi.ts';
import { AppError, type ErrorName } from '../errors.ts';
import { oauthErrorOf } from '../http/respond.ts';
import { jsonSchemaOf } from '../json-schema.ts';
import { jsonRpcCodeOf } from '../mcp/json-rpc.ts';
import type { AuthMode, ErrorStyle, RawResponse, RouteSpec } from '../route-spec.ts';
import { type RouteId, routeList } from '../routes.ts';
import { routeAreas } from './areas.ts';
import { exampleOf } from './examples.ts';

/** The interface version (docs/openapi.md): changes with the interface, not with the package. */
const API_VERSION = '1.0.0';

type JsonSchema = Record<string, unknown>;
type Json = Record<string, unknown>;

export interface DocumentOptions {
  /** The public base URL of the service (its `ISSUER`). */
  readonly serverUrl: string;
  /** `SERVICE_NAME`: the platform session cookie is `<service>.session_token`. */
  readonly serviceName: string;
}

/** Every route may answer this besides its own errors. */
const ALWAYS: ErrorName = 'internal';

/** A zod schema as JSON Schema 2020-12 (the dialect OpenAPI 3.1 uses), without its `$schema`. */
function openApiSchemaOf(schema: z.$ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = jsonSchemaOf(schema, io) as JsonSchema;
  return rest;
}

const isRaw = (declared: z.$ZodType | RawResponse): declared is RawResponse => 'raw' in declared;

/** An empty answer (`NoBody`, `z.undefined()`): no content at all. */
const isNoBody = (schema: z.$ZodType): boolean => schema._zod.def.type === 'undefined';

function securitySchemes(serviceName: string): Json {
  return {
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        "An application's public (`pu_…`) or secret (`sk_…`; `ak_…` is accepted as the same secret) API key " +
        "(docs/api.md, API keys). With a key, a browser session travels in the cookie of the key's application, " +
        `\`${serviceName}.session_token.<applicationId>\` (a name OpenAPI cannot template), never in the ` +
        'platform cookie: send that cookie beside the key where a session is read.',
    },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'A session token (RS256 JWT) from a sign-in, or an impersonation token.',
    },
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: `${serviceName}.session_token`,
      description:
        'The platform session cookie a browser sign-in without a key sets, read only when no key comes; ' +
        `an application's sessions use \`${serviceName}.session_token.<applicationId>\` with its key ` +
        '(see `apiKey`). State-changing requests need an allowed Origin.',
    },
    impersonationCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: `${serviceName}.impersonation_token`,
      description:
        'The impersonation cookie an administrator holds while impersonating (docs/api.md, Impersonation): read before any ' +
        "other credential on session routes (with a key, only an impersonation of the key's application), " +
        'and by `POST /impersonation/{id}/end`. State-changing requests need an allowed Origin.',
    },
    oauthAccessToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: "An OAuth access token issued by `POST /oauth/token` for the application's MCP resource.",
    },
  };
}

/**
 * A session by Bearer, platform cookie or impersonation cookie; with a key, by Bearer or the
 * impersonation cookie (the key's application cookie has a name per application: see `apiKey`).
 */
const session = [
  { bearer: [] },
  { sessionCookie: [] },
  { impersonationCookie: [] },
  { bearer: [], apiKey: [] },
  { impersonationCookie: [], apiKey: [] },
];

/** The security requirements of each auth mode; `{}` is "no credential". */
const securityByMode: Record<AuthMode, Json[]> = {
  none: [],
  'key-optional': [{}, { apiKey: [] }],
  'secret-key': [{ apiKey: [] }],
  'api-key': [{ apiKey: [] }],
  session,
  'session-optional': [{}, ...session, { apiKey: [] }],
  // The tokens of the target application: Bearer and its session cookie, never the impersonation cookie.
  'sign-out': [{}, { bearer: [] }, { sessionCookie: [] }, { bearer: [], apiKey: [] }, { apiKey: [] }],
  manage: [...session, { apiKey: [] }],
  impersonation: [{}, { bearer: [] }, { impersonationCookie: [] }],
  'platform-cookie': [{}, { sessionCookie: [] }],
};

function securityOf(route: RouteSpec): Json[] {
  // The MCP endpoint reads no session or key: its bearer is an OAuth access token it verifies itself.
  if (route.errorStyle === 'mcp' && route.method === 'POST') return [{ oauthAccessToken: [] }];
  return securityByMode[route.auth];
}

/** Headers OpenAPI describes elsewhere (security schemes, content types): never parameters. */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function parametersOf(route: RouteSpec): Json[] {
  const { params, query, headers } = route.contract;
  const parts: Array<[string, z.$ZodType | undefined]> = [
    ['path', params],
    ['query', query],
    ['header', headers],
  ];
  const declared = parts.flatMap(([where, schema]) => {
    if (!schema) return [];
    const object = openApiSchemaOf(schema, 'input');
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((object.required ?? []) as string[]);
    return (
      Object.entries(properties)
        .filter(([name]) => !(where === 'header' && RESERVED_HEADERS.has(name)))
        // API Gateway's greedy `{name+}` spans segments, which no OpenAPI path parameter can (below).
        .filter(([name]) => !(where === 'path' && route.path.includes(`{${name}+}`)))
        .map(([name, property]) => ({
          name,
          in: where,
          required: where === 'path' || required.has(name),
          schema: property,
        }))
    );
  });
  // A template the contract does not validate is still a parameter. Not API Gateway's greedy
  // `{proxy+}` (the preflight's): it spans segments, which no OpenAPI path parameter can.
  const templated = [...route.path.matchAll(/\{([^}+]+)\}/g)]
    .map((match) => match[1] as string)
    .filter((name) => !declared.some((parameter) => parameter.in === 'path' && parameter.name === name))
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return [...templated, ...declared];
}

function requestBodyOf(route: RouteSpec): Json | undefined {
  const body = route.contract.body;
  if (!body) return undefined;
  const [mediaTypes, schema] =
    'json' in body
      ? [
          body.mergePatch ? ['application/merge-patch+json', 'application/json'] : ['application/json'],
          body.json,
        ]
      : [['application/x-www-form-urlencoded'], body.form];
  const json = openApiSchemaOf(schema, 'input');
  const example = exampleOf(json);
  return {
    required: true,
    content: Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema: json, example }])),
  };
}

interface Variant {
  readonly mediaType: string;
  readonly schema: JsonSchema;
  readonly example?: unknown;
}

interface ResponseParts {
  descriptions: string[];
  variants: Variant[];
}

/** The body of an error in the route's style, for the catalogue codes answered with one status. */
function errorVariant(style: ErrorStyle, errors: readonly AppError[]): Variant {
  const message = { type: 'string' };
  switch (style) {
    case 'app':
      return {
        mediaType: 'application/json',
        schema: {
          type: 'object',
          required: ['error'],
          properties: {
            error: envelopeError(errors, message),
          },
        },
      };
    case 'oauth':
      return {
        mediaType: 'application/json',
        schema: {
          type: 'object',
          required: ['error', 'error_description'],
          properties: { error: { enum: unique(errors.map(oauthErrorOf)) }, error_description: message },
        },
      };
    case 'mcp':
      return {
        mediaType: 'application/json',
        schema: {
          type: 'object',
          required: ['jsonrpc', 'id', 'error'],
          properties: {
            jsonrpc: { const: '2.0' },
            id: { type: ['string', 'number', 'null'] },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { enum: unique(errors.map(jsonRpcCodeOf)) },
                message,
                // The platform envelope's error, as the JSON-RPC error's data.
                data: envelopeError(errors, message),
              },
            },
          },
        },
      };
    case 'html':
      return { mediaType: 'text/html', schema: { type: 'string' } };
  }
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** The `error` object of the platform envelope (docs/api.md, Endpoints) with the codes of `errors`. */
const envelopeError = (errors: readonly AppError[], message: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { enum: unique(errors.map((error) => error.code)) },
    message,
    details: { type: 'object' },
  },
});

const errorDescription = (style: ErrorStyle, errors: readonly AppError[]): string => {
  const codes = unique(errors.map((error) => (style === 'oauth' ? oauthErrorOf(error) : error.code)));
  const kind = { app: 'Error', oauth: 'RFC 6749 error', mcp: 'JSON-RPC error', html: 'Error page' }[style];
  return `${kind}: ${codes.join(', ')}`;
};

/**
 * API Gateway's own throttle (docs/api.md, Endpoints) answers any route 429 before the route runs,
 * with its own body `{"message":"Too Many Requests"}`, not the envelope, and no `Retry-After`.
 */
const gatewayThrottle: Variant = {
  mediaType: 'application/json',
  schema: {
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string' } },
    description: 'API Gateway\'s throttle, before the route runs: `{"message":"Too Many Requests"}`',
  },
};

/** The routes whose success carries the new session token in `set-auth-token` (docs/api.md, Endpoints). */
const SETS_AUTH_TOKEN: ReadonlySet<RouteId> = new Set<RouteId>([
  'codeVerify',
  'codePoll',
  'refresh',
  'startImpersonation',
  'socialExchange',
]);

const header = (description: string, required = false): Json => ({
  description,
  required,
  schema: { type: 'string' },
});

/** The response headers a route sets at a status (the test of recorded answers holds both ways). */
function headersOf(route: RouteSpec & { readonly id: string }, status: number): Json | undefined {
  const headers: Json = {};
  if (status === 302 || status === 303) headers.Location = header('Where the browser goes next.', true);
  if (status === 429 || status === 503)
    headers['Retry-After'] = header(
      "Seconds to wait, as `details.retryAfter` (absent on API Gateway's throttle and on `slow_down`).",
    );
  // The sign-in bridge's session travels as the platform session cookie, never in a header.
  if (status === 303 && route.id === 'oauthSignInVerify')
    headers['Set-Cookie'] = header('The platform session cookie of the bridge sign-in.', true);
  // The preflight's answer to a request with an `Origin` (docs/api.md, Endpoints: CORS).
  if (route.method === 'OPTIONS' && status === 204)
    Object.assign(headers, {
      'Access-Control-Allow-Origin': header("The request's `Origin`, when it sent one."),
      'Access-Control-Allow-Methods': header('`GET, POST, PUT, PATCH, DELETE, OPTIONS`.'),
      'Access-Control-Allow-Headers': header(
        'The request headers a browser may send: credentials, JSON, MCP.',
      ),
      'Access-Control-Max-Age': header('`600`: the browser keeps the answer 10 minutes.'),
    });
  if (status >= 200 && status < 300 && SETS_AUTH_TOKEN.has(route.id as RouteId))
    headers['set-auth-token'] = header('The session token of the body, for clients that read headers.', true);
  const challenged =
    (route.errorStyle === 'mcp' && route.method === 'POST' && (status === 401 || status === 403)) ||
    (route.errorStyle === 'oauth' && status === 401);
  if (challenged)
    headers['WWW-Authenticate'] = header(
      'The challenge: RFC 6750 `Bearer` with `resource_metadata` (MCP, RFC 9728), or the scheme the client authenticated with (token endpoint).',
    );
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function responsesOf(route: RouteSpec & { readonly id: string }): Json {
  const byStatus = new Map<number, ResponseParts>();
  const partsOf = (status: number): ResponseParts => {
    const parts = byStatus.get(status) ?? { descriptions: [], variants: [] };
    byStatus.set(status, parts);
    return parts;
  };
  for (const [key, declared] of Object.entries(route.contract.responses)) {
    const parts = partsOf(Number(key));
    if (Number(key) === 304) {
      // RFC 9110 §15.4.5: a 304 has no content, whatever the 200 carries.
      parts.descriptions.push('Not Modified: the cached copy is current');
    } else if (isRaw(declared)) {
      parts.descriptions.push(`Answer as ${declared.raw}`);
      const schema = declared.schema ? openApiSchemaOf(declared.schema, 'output') : rawSchema(declared.raw);
      parts.variants.push({
        mediaType: declared.raw,
        schema,
        ...(declared.schema ? { example: exampleOf(schema) } : {}),
      });
    } else if (isNoBody(declared)) {
      parts.descriptions.push('No body');
    } else {
      const schema = openApiSchemaOf(declared, 'output');
      parts.descriptions.push('Success');
      parts.variants.push({ mediaType: 'application/json', schema, example: exampleOf(schema) });
    }
  }
  const errors = unique([...route.contract.errors, ALWAYS]).map((name) => new AppError(name, ''));
  for (const status of unique(errors.map((error) => error.status))) {
    const same = errors.filter((error) => error.status === status);
    const parts = partsOf(status);
    parts.descriptions.push(errorDescription(route.errorStyle, same));
    parts.variants.push(errorVariant(route.errorStyle, same));
  }
  const throttled = partsOf(429);
  throttled.descriptions.push("API Gateway's throttle: `{ message }`");
  throttled.variants.push(gatewayThrottle);
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const { descriptions, variants } = byStatus.get(status) as ResponseParts;
      const answer: Json = { description: descriptions.join('; ') };
      const headers = headersOf(route, status);
      if (headers) answer.headers = headers;
      if (variants.length > 0) answer.content = contentOf(variants);
      return [String(status), answer];
    }),
  );
}

/**
 * A raw answer without a schema of its own: bytes for images, text for pages, any JSON for a body
 * the route does not shape (give it `schema` instead: shared/route-spec.ts, RawResponse).
 */
const rawSchema = (mediaType: string): JsonSchema =>
  mediaType === 'application/json'
    ? {}
    : mediaType.startsWith('text/')
      ? { type: 'string' }
      : { type: 'string', contentMediaType: mediaType };

/** Variants of one media type become one `anyOf`, each schema once (an HTML page is one string). */
function contentOf(variants: readonly Variant[]): Json {
  const content: Json = {};
  for (const mediaType of unique(variants.map((variant) => variant.mediaType))) {
    const same = variants.filter((variant) => variant.mediaType === mediaType);
    const schemas = [
      ...new Map(same.map((variant) => [JSON.stringify(variant.schema), variant.schema])).values(),
    ];
    const [first] = schemas;
    const schema = schemas.length === 1 && first ? first : { anyOf: schemas };
    const example = same.find((variant) => variant.example !== undefined)?.example;
    content[mediaType] = example === undefined ? { schema } : { schema, example };
  }
  return content;
}

/** Each route's tag: the area of the route table that holds it (shared/openapi/areas.ts). */
const tagById = new Map(
  routeAreas.flatMap((area) => Object.keys(area.routes).map((id) => [id, area.tag] as const)),
);

/** The summary is the description's first sentence (shared/route-spec.ts, `description`). */
const summaryOf = (description: string): string =>
  description.split(/(?<=\.)\s/)[0]?.replace(/\.$/, '') ?? '';

function operationOf(route: RouteSpec & { readonly id: string }): Json {
  const parameters = parametersOf(route);
  const requestBody = requestBodyOf(route);
  const description = route.description ?? '';
  return {
    operationId: route.id,
    summary: summaryOf(description),
    description,
    tags: [tagById.get(route.id)],
    security: securityOf(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(route),
    ...(route.permission ? { 'x-doorcode-permission': route.permission.action } : {}),
    'x-doorcode-error-style': route.errorStyle,
  };
}

/** The whole document, one path item per path of the table, one operation per route. */
export function openApiDocument(options: DocumentOptions): mini.output<typeof OpenApiDocument> {
  const paths: Record<string, Json> = {};
  for (const route of routeList) {
    // A further path (`alsoAt`) is the same operation at another URL: its id takes the path's place.
    for (const [index, path] of [route.path, ...(route.alsoAt ?? [])].entries()) {
      const item = paths[path] ?? {};
      const operation = operationOf(route);
      item[route.method.toLowerCase()] =
        index === 0 ? operation : { ...operation, operationId: `${route.id}At${index}` };
      paths[path] = item;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.serviceName} authentication API`,
      version: API_VERSION,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description:
        'Passwordless sign-in (email code, device approval and poll), sessions, tenancy management, OAuth 2.1 and MCP. ' +
        'Errors use the envelope `{ error: { code, message, details? } }`; OAuth routes answer RFC 6749 `{ error, error_description }`.',
    },
    servers: [{ url: options.serverUrl }],
    tags: routeAreas.map(({ tag, description }) => ({ name: tag, description })),
    paths,
    components: { securitySchemes: securitySchemes(options.serviceName) },
  };
}
