/**
 * The one route table. Data only: the CDK stack (lib/) creates one Lambda function per entry with
 * IAM grants derived from `access`; the local server (shared/local/) serves the same entries by
 * calling the same exported handlers; the shared chain (shared/http/) authenticates the caller from
 * `auth`, validates path, query and body from `contract`, builds the answer from its declared
 * response schema and serializes errors in the route's `errorStyle`.
 */
import type * as z from 'zod/v4/core';
import { NoBody, SignInResult } from './contracts/common.ts';
import { Jwks, Root, StatusReport } from './contracts/health.ts';
import { ConditionalGet, ImagePath } from './contracts/images.ts';
import { Revoked, SessionInfo, SessionList, SignedOut, UserResult } from './contracts/sessions.ts';
import { Approved, PeekResult, StartResult } from './contracts/sign-in.ts';
import type { ErrorName } from './errors.ts';
import { CodeBody, PeekBody, PollBody, StartBody } from './sign-in/schemas.ts';
import { RevokeSessionBody, UpdateUserBody } from './users/schemas.ts';

/**
 * Every route function's timeout: lib/route-function.ts gives it to Lambda, and the local server
 * counts each invocation's remaining time from it, so both report the same deadline to the chain.
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** What a route's function may touch in AWS. Grants and the bundled adapters derive from this alone. */
export interface RouteAccess {
  /** DynamoDB table access. */
  readonly table?: 'read' | 'readwrite';
  /** `kms:Sign` on the signing key (RSASSA_PKCS1_V1_5_SHA_256 over a DIGEST only). */
  readonly sign?: boolean;
  /** `kms:GetPublicKey` on the signing key (to verify tokens or publish the JWKS). */
  readonly publicKeys?: boolean;
  /** `ses:SendEmail` from the sender identity. */
  readonly mail?: boolean;
  /** `secretsmanager:GetSecretValue` on the sign-in code-hash key (DESIGN §3): the routes that hash codes. */
  readonly codeKey?: boolean;
}

type HttpMethod = 'GET' | 'POST' | 'OPTIONS';

/** `app`: the platform envelope of SPEC §7; `oauth`: RFC 6749 error objects; `mcp`: JSON-RPC errors. */
export type ErrorStyle = 'app' | 'oauth' | 'mcp';

/**
 * Which credentials the chain reads and what it refuses (SPEC §5), resolved into a typed caller
 * (shared/sessions/caller.ts):
 * - `none`: nothing is read (health, discovery, poll: SPEC §5.6);
 * - `key-optional`: an `X-API-Key` may come and must then be valid (sign-in);
 * - `secret-key`: a secret key is required (peek: SPEC §5.7);
 * - `session`: a session token by Bearer or cookie, with an optional key of the session's application;
 * - `session-optional`: as `session`, but anonymous and key-only callers pass (`GET /auth/session`);
 * - `sign-out`: every presented token of the target application, never refused (SPEC §4.4).
 */
export type AuthMode = 'none' | 'key-optional' | 'secret-key' | 'session' | 'session-optional' | 'sign-out';

/** How a request body is encoded; the chain answers 415 for any other content type. */
export type BodySpec = { readonly json: z.$ZodType } | { readonly form: z.$ZodType };

/** An answer whose body is not JSON (an image): the handler gives its bytes and type. */
export interface RawResponse {
  /** The media type(s) it may have, e.g. `image/*`. */
  readonly raw: string;
}

/** A route's interface: what it accepts and everything it may answer. */
interface RouteContract {
  /** Path parameters (`{id}` in the path). */
  readonly params?: z.$ZodType;
  readonly query?: z.$ZodType;
  /** Request headers the route reads itself (lower-case names), besides the credentials. */
  readonly headers?: z.$ZodType;
  readonly body?: BodySpec;
  /** The answer's body schema per status; `NoBody` for an empty answer. */
  readonly responses: Readonly<Record<number, z.$ZodType | RawResponse>>;
  /** Every error of the catalogue (shared/errors.ts) the route may answer besides `internal`. */
  readonly errors: readonly ErrorName[];
}

export interface RouteSpec {
  readonly method: HttpMethod;
  readonly path: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly errorStyle: ErrorStyle;
  readonly auth: AuthMode;
  readonly access: RouteAccess;
  readonly contract: RouteContract;
}

/** The chain's own refusals of a body it cannot read, common to every route that takes one. */
const bodyErrors = ['invalidRequest', 'payloadTooLarge', 'unsupportedMediaType'] as const;

/** Errors every authenticated route may answer on top of its own. */
const credentialErrors = ['unauthorized'] as const;

export const routes = {
  /** CORS preflight for every path (API Gateway prefers a route with the request's own method). */
  preflight: {
    method: 'OPTIONS',
    path: '/{proxy+}',
    entry: 'functions/http/preflight.ts',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 204: NoBody }, errors: [] },
  },
  root: {
    method: 'GET',
    path: '/',
    entry: 'functions/health/root.ts',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: Root }, errors: [] },
  },
  status: {
    method: 'GET',
    path: '/status',
    entry: 'functions/health/status.ts',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'read', publicKeys: true },
    contract: { responses: { 200: StatusReport }, errors: [] },
  },
  jwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    entry: 'functions/well-known/jwks.ts',
    errorStyle: 'app',
    auth: 'none',
    access: { publicKeys: true },
    contract: { responses: { 200: Jwks }, errors: [] },
  },
  codeStart: {
    method: 'POST',
    path: '/auth/code/start',
    entry: 'functions/auth/code-start.ts',
    errorStyle: 'app',
    auth: 'key-optional',
    access: { table: 'readwrite', mail: true, codeKey: true },
    contract: {
      body: { json: StartBody },
      responses: { 200: StartResult },
      errors: [...bodyErrors, ...credentialErrors, 'rateLimited', 'mailUnavailable'],
    },
  },
  codeVerify: {
    method: 'POST',
    path: '/auth/code/verify',
    entry: 'functions/auth/code-verify.ts',
    errorStyle: 'app',
    auth: 'key-optional',
    access: { table: 'readwrite', sign: true, codeKey: true },
    contract: {
      body: { json: CodeBody },
      responses: { 200: SignInResult },
      errors: [
        ...bodyErrors,
        ...credentialErrors,
        'wrongCode',
        'codeExpired',
        'accountChanged',
        'rateLimited',
        'tooManyAttempts',
        'outOfTime',
      ],
    },
  },
  codeApprove: {
    method: 'POST',
    path: '/auth/code/approve',
    entry: 'functions/auth/code-approve.ts',
    errorStyle: 'app',
    auth: 'key-optional',
    access: { table: 'readwrite', codeKey: true },
    contract: {
      body: { json: CodeBody },
      responses: { 200: Approved },
      errors: [
        ...bodyErrors,
        ...credentialErrors,
        'wrongCode',
        'codeExpired',
        'rateLimited',
        'tooManyAttempts',
      ],
    },
  },
  codePoll: {
    method: 'POST',
    path: '/auth/code/poll',
    entry: 'functions/auth/code-poll.ts',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'readwrite', sign: true },
    contract: {
      body: { json: PollBody },
      responses: { 200: SignInResult },
      errors: [
        ...bodyErrors,
        'pollExpired',
        'deviceCodeUnusable',
        'authorizationPending',
        'accountChanged',
        'rateLimited',
        'outOfTime',
      ],
    },
  },
  codePeek: {
    method: 'POST',
    path: '/auth/code/peek',
    entry: 'functions/auth/code-peek.ts',
    errorStyle: 'app',
    auth: 'secret-key',
    access: { table: 'readwrite' },
    contract: {
      body: { json: PeekBody },
      responses: { 200: PeekResult },
      errors: [...bodyErrors, ...credentialErrors, 'notFound', 'rateLimited'],
    },
  },
  session: {
    method: 'GET',
    path: '/auth/session',
    entry: 'functions/auth/session.ts',
    errorStyle: 'app',
    auth: 'session-optional',
    access: { table: 'read', publicKeys: true },
    contract: { responses: { 200: SessionInfo }, errors: [...credentialErrors] },
  },
  refresh: {
    method: 'POST',
    path: '/auth/refresh',
    entry: 'functions/auth/refresh.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', sign: true },
    contract: { responses: { 200: SignInResult }, errors: [...credentialErrors, 'forbidden'] },
  },
  signOut: {
    method: 'POST',
    path: '/auth/sign-out',
    entry: 'functions/auth/sign-out.ts',
    errorStyle: 'app',
    auth: 'sign-out',
    access: { table: 'readwrite', publicKeys: true },
    contract: { responses: { 200: SignedOut }, errors: [] },
  },
  listSessions: {
    method: 'GET',
    path: '/auth/list-sessions',
    entry: 'functions/auth/list-sessions.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'read', publicKeys: true },
    contract: { responses: { 200: SessionList }, errors: [...credentialErrors] },
  },
  revokeSessionById: {
    method: 'POST',
    path: '/auth/revoke-session-by-id',
    entry: 'functions/auth/revoke-session-by-id.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true },
    contract: {
      body: { json: RevokeSessionBody },
      responses: { 200: Revoked },
      errors: [...bodyErrors, ...credentialErrors, 'forbidden'],
    },
  },
  revokeOtherSessions: {
    method: 'POST',
    path: '/auth/revoke-other-sessions',
    entry: 'functions/auth/revoke-other-sessions.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true },
    contract: { responses: { 200: Revoked }, errors: [...credentialErrors, 'forbidden'] },
  },
  updateUser: {
    method: 'POST',
    path: '/auth/update-user',
    entry: 'functions/auth/update-user.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true },
    contract: {
      body: { json: UpdateUserBody },
      responses: { 200: UserResult },
      // rateLimited: concurrent changes of the same user kept replacing its image first.
      errors: [...bodyErrors, ...credentialErrors, 'forbidden', 'rateLimited'],
    },
  },
  /** Uploaded profile images, by owner and bytes, deleted with the profile change: public, apart from the session path. */
  image: {
    method: 'GET',
    path: '/images/{id}',
    entry: 'functions/images/get-image.ts',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'read' },
    contract: {
      params: ImagePath,
      headers: ConditionalGet,
      responses: { 200: { raw: 'image/*' }, 304: { raw: 'image/*' } },
      errors: ['notFound'],
    },
  },
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof routes;

/** Every route with its id, in table order. */
export const routeList: ReadonlyArray<RouteSpec & { readonly id: RouteId }> = (
  Object.keys(routes) as RouteId[]
).map((id) => ({ id, ...routes[id] }));
