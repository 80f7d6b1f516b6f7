/**
 * The one route table. Data only: the CDK stack (lib/) creates one Lambda function per
 * entry with IAM grants derived from `access`, and the local server (shared/local/)
 * serves the same entries by calling the same exported handlers.
 */

/** What a route's function may touch in AWS. Grants are derived from this and nothing else. */
export interface RouteAccess {
  /** DynamoDB table access. */
  readonly table?: 'read' | 'readwrite';
  /** `kms:Sign` on the signing key (RSASSA_PKCS1_V1_5_SHA_256 over a DIGEST only). */
  readonly sign?: boolean;
  /** `kms:GetPublicKey` on the signing key (to verify tokens or publish the JWKS). */
  readonly publicKeys?: boolean;
  /** `ses:SendEmail` from the sender identity. */
  readonly mail?: boolean;
}

export type HttpMethod = 'GET' | 'POST';
/** `app`: the platform envelope of SPEC §7; `oauth`: RFC 6749 error objects. */
export type ErrorStyle = 'app' | 'oauth';
/** Which credentials the route reads (SPEC §5). */
export type AuthMode = 'none' | 'key-optional' | 'key-required' | 'session' | 'session-optional';

export interface RouteSpec {
  readonly method: HttpMethod;
  readonly path: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly errors: ErrorStyle;
  readonly auth: AuthMode;
  /** `json`: the route takes a JSON body (parsed and size-checked by the shared chain). */
  readonly body?: 'json';
  readonly access: RouteAccess;
}

export const routes = {
  root: {
    method: 'GET',
    path: '/',
    entry: 'functions/health/root.ts',
    errors: 'app',
    auth: 'none',
    access: {},
  },
  status: {
    method: 'GET',
    path: '/status',
    entry: 'functions/health/status.ts',
    errors: 'app',
    auth: 'none',
    access: { table: 'read', publicKeys: true },
  },
  jwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    entry: 'functions/well-known/jwks.ts',
    errors: 'app',
    auth: 'none',
    access: { publicKeys: true },
  },
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof routes;

/** Every route with its id, in table order. */
export const routeList: ReadonlyArray<RouteSpec & { readonly id: RouteId }> = (
  Object.keys(routes) as RouteId[]
).map((id) => ({ id, ...routes[id] }));
