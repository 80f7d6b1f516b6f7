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

export type HttpMethod = 'GET' | 'POST' | 'OPTIONS';
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
  /** CORS preflight for every path (API Gateway prefers a route with the request's own method). */
  preflight: {
    method: 'OPTIONS',
    path: '/{proxy+}',
    entry: 'functions/http/preflight.ts',
    errors: 'app',
    auth: 'none',
    access: {},
  },
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
  codeStart: {
    method: 'POST',
    path: '/auth/code/start',
    entry: 'functions/auth/code-start.ts',
    errors: 'app',
    auth: 'key-optional',
    body: 'json',
    access: { table: 'readwrite', mail: true },
  },
  codeVerify: {
    method: 'POST',
    path: '/auth/code/verify',
    entry: 'functions/auth/code-verify.ts',
    errors: 'app',
    auth: 'key-optional',
    body: 'json',
    access: { table: 'readwrite', sign: true },
  },
  codeApprove: {
    method: 'POST',
    path: '/auth/code/approve',
    entry: 'functions/auth/code-approve.ts',
    errors: 'app',
    auth: 'key-optional',
    body: 'json',
    access: { table: 'readwrite' },
  },
  codePoll: {
    method: 'POST',
    path: '/auth/code/poll',
    entry: 'functions/auth/code-poll.ts',
    errors: 'app',
    auth: 'none',
    body: 'json',
    access: { table: 'readwrite', sign: true },
  },
  codePeek: {
    method: 'POST',
    path: '/auth/code/peek',
    entry: 'functions/auth/code-peek.ts',
    errors: 'app',
    auth: 'key-required',
    body: 'json',
    access: { table: 'readwrite' },
  },
  session: {
    method: 'GET',
    path: '/auth/session',
    entry: 'functions/auth/session.ts',
    errors: 'app',
    auth: 'session-optional',
    access: { table: 'read', publicKeys: true },
  },
  refresh: {
    method: 'POST',
    path: '/auth/refresh',
    entry: 'functions/auth/refresh.ts',
    errors: 'app',
    auth: 'session',
    access: { table: 'readwrite', sign: true },
  },
  signOut: {
    method: 'POST',
    path: '/auth/sign-out',
    entry: 'functions/auth/sign-out.ts',
    errors: 'app',
    auth: 'session-optional',
    access: { table: 'readwrite', publicKeys: true },
  },
  listSessions: {
    method: 'GET',
    path: '/auth/list-sessions',
    entry: 'functions/auth/list-sessions.ts',
    errors: 'app',
    auth: 'session',
    access: { table: 'read', publicKeys: true },
  },
  revokeSessionById: {
    method: 'POST',
    path: '/auth/revoke-session-by-id',
    entry: 'functions/auth/revoke-session-by-id.ts',
    errors: 'app',
    auth: 'session',
    body: 'json',
    access: { table: 'readwrite', publicKeys: true },
  },
  revokeOtherSessions: {
    method: 'POST',
    path: '/auth/revoke-other-sessions',
    entry: 'functions/auth/revoke-other-sessions.ts',
    errors: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true },
  },
  updateUser: {
    method: 'POST',
    path: '/auth/update-user',
    entry: 'functions/auth/update-user.ts',
    errors: 'app',
    auth: 'session',
    body: 'json',
    access: { table: 'readwrite', publicKeys: true },
  },
  /** Uploaded profile images, by the hash of their bytes: public and cacheable, apart from the session path. */
  image: {
    method: 'GET',
    path: '/images/{id}',
    entry: 'functions/images/get-image.ts',
    errors: 'app',
    auth: 'none',
    access: { table: 'read' },
  },
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof routes;

/** Every route with its id, in table order. */
export const routeList: ReadonlyArray<RouteSpec & { readonly id: RouteId }> = (
  Object.keys(routes) as RouteId[]
).map((id) => ({ id, ...routes[id] }));
