/**
 * The one route table. Data only: the CDK stack (lib/) creates one Lambda function per entry with
 * IAM grants derived from `access`; the local server (shared/local/) serves the same entries by
 * calling the same exported handlers; the shared chain (shared/http/) authenticates the caller from
 * `auth`, validates path, query and body from `contract`, builds the answer from its declared
 * response schema and serializes errors in the route's `errorStyle`.
 */
import { NoBody, SignInResult } from './contracts/common.ts';
import { Jwks, Root, StatusReport } from './contracts/health.ts';
import { ConditionalGet, ImagePath } from './contracts/images.ts';
import { OpenApiDocument } from './contracts/openapi.ts';
import { Revoked, SessionInfo, SessionList, SignedOut, UserResult } from './contracts/sessions.ts';
import { Approved, PeekResult, StartResult } from './contracts/sign-in.ts';
import {
  bodyErrors,
  CODE_CHECK_THROTTLE,
  credentialErrors,
  MAIL_THROTTLE,
  type RouteSpec,
} from './route-spec.ts';
import { apiKeyRoutes } from './route-table/api-keys.ts';
import { applicationRoutes } from './route-table/applications.ts';
import { auditRoutes } from './route-table/audit.ts';
import { configurationRoutes } from './route-table/configuration.ts';
import { impersonationRoutes } from './route-table/impersonation.ts';
import { mcpRoutes } from './route-table/mcp.ts';
import { oauthAuthorizeRoutes } from './route-table/oauth-authorize.ts';
import { oauthDiscoveryRoutes } from './route-table/oauth-discovery.ts';
import { oauthTokenRoutes } from './route-table/oauth-token.ts';
import { organizationRoutes } from './route-table/organizations.ts';
import { recentAccountRoutes } from './route-table/recent-accounts.ts';
import { socialRoutes } from './route-table/social.ts';
import { statisticsRoutes } from './route-table/statistics.ts';
import { tenantOrganizationRoutes } from './route-table/tenant-organizations.ts';
import { userRoutes } from './route-table/users.ts';
import { CodeBody, PeekBody, PollBody, StartBody } from './sign-in/schemas.ts';
import { RevokeSessionBody, UpdateUserBody } from './users/schemas.ts';

export type {
  AccessProfile,
  AuthMode,
  BodySpec,
  ErrorStyle,
  RawResponse,
  RouteAccess,
  RouteSpec,
} from './route-spec.ts';

import { byKey, bySession, endsSessions, signInDone } from './route-table/item-families.ts';

export { DEFAULT_THROTTLE, FUNCTION_TIMEOUT_SECONDS } from './route-spec.ts';

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
    access: { table: 'read', publicKeys: true, items: ['health'] },
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
  /** The OpenAPI 3.1.0 description generated from this table (shared/openapi/; docs/openapi.md). */
  openApi: {
    method: 'GET',
    path: '/openapi.json',
    entry: 'functions/docs/openapi.ts',
    errorStyle: 'app',
    auth: 'none',
    access: {},
    contract: { responses: { 200: OpenApiDocument }, errors: [] },
  },
  codeStart: {
    // Sign-in by code keeps answering when other functions take the account's concurrency.
    reserved: true,
    method: 'POST',
    path: '/auth/code/start',
    entry: 'functions/auth/code-start.ts',
    errorStyle: 'app',
    auth: 'key-optional',
    access: { table: 'readwrite', mail: true, codeKey: true, items: [...byKey, 'account', 'rate', 'device'] },
    // Every start sends an email.
    throttle: MAIL_THROTTLE,
    contract: {
      body: { json: StartBody },
      responses: { 200: StartResult },
      errors: [...bodyErrors, ...credentialErrors, 'rateLimited', 'mailUnavailable'],
    },
  },
  codeVerify: {
    // Sign-in by code keeps answering when other functions take the account's concurrency.
    reserved: true,
    method: 'POST',
    path: '/auth/code/verify',
    entry: 'functions/auth/code-verify.ts',
    errorStyle: 'app',
    auth: 'key-optional',
    access: { table: 'readwrite', sign: true, codeKey: true, items: signInDone },
    throttle: CODE_CHECK_THROTTLE,
    contract: {
      body: { json: CodeBody },
      responses: { 200: SignInResult },
      errors: [
        ...bodyErrors,
        ...credentialErrors,
        'wrongCode',
        'codeExpired',
        'accountDisabled',
        'accountChanged',
        'rateLimited',
        'tooManyAttempts',
        'outOfTime',
      ],
    },
  },
  codeApprove: {
    // Sign-in by code keeps answering when other functions take the account's concurrency.
    reserved: true,
    method: 'POST',
    path: '/auth/code/approve',
    entry: 'functions/auth/code-approve.ts',
    errorStyle: 'app',
    auth: 'key-optional',
    access: { table: 'readwrite', codeKey: true, items: [...byKey, 'account', 'rate', 'device'] },
    throttle: CODE_CHECK_THROTTLE,
    contract: {
      body: { json: CodeBody },
      responses: { 200: Approved },
      errors: [
        ...bodyErrors,
        ...credentialErrors,
        'wrongCode',
        'codeExpired',
        'accountDisabled',
        'rateLimited',
        'tooManyAttempts',
      ],
    },
  },
  codePoll: {
    // Sign-in by code keeps answering when other functions take the account's concurrency.
    reserved: true,
    method: 'POST',
    path: '/auth/code/poll',
    entry: 'functions/auth/code-poll.ts',
    errorStyle: 'app',
    auth: 'none',
    access: { table: 'readwrite', sign: true, items: signInDone },
    // An agent polls every 5 s (`interval`): 250 agents waiting at once.
    throttle: { rate: 50, burst: 100 },
    contract: {
      body: { json: PollBody },
      responses: { 200: SignInResult },
      errors: [
        ...bodyErrors,
        'pollExpired',
        'deviceCodeUnusable',
        'authorizationPending',
        'accountDisabled',
        'accountChanged',
        'rateLimited',
        'outOfTime',
      ],
    },
  },
  codePeek: {
    // Sign-in by code keeps answering when other functions take the account's concurrency.
    reserved: true,
    method: 'POST',
    path: '/auth/code/peek',
    entry: 'functions/auth/code-peek.ts',
    errorStyle: 'app',
    auth: 'secret-key',
    access: { table: 'readwrite', items: [...byKey, 'account', 'rate'] },
    // Test domains only.
    throttle: { rate: 5, burst: 10 },
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
    access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey, 'impersonation'] },
    // Every page load of every platform asks, signed in or not.
    throttle: { rate: 500, burst: 1000 },
    contract: { responses: { 200: SessionInfo }, errors: [...credentialErrors] },
  },
  refresh: {
    method: 'POST',
    path: '/auth/refresh',
    entry: 'functions/auth/refresh.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', sign: true, items: endsSessions },
    // rateLimited: concurrent writes kept cancelling the refresh with its statistics counters.
    contract: {
      responses: { 200: SignInResult },
      errors: [...credentialErrors, 'forbidden', 'rateLimited'],
    },
  },
  signOut: {
    method: 'POST',
    path: '/auth/sign-out',
    entry: 'functions/auth/sign-out.ts',
    errorStyle: 'app',
    auth: 'sign-out',
    access: { table: 'readwrite', publicKeys: true, items: endsSessions },
    audit: ['impersonation.ended'],
    contract: { responses: { 200: SignedOut }, errors: [] },
  },
  listSessions: {
    method: 'GET',
    path: '/auth/list-sessions',
    entry: 'functions/auth/list-sessions.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey] },
    contract: { responses: { 200: SessionList }, errors: [...credentialErrors] },
  },
  revokeSessionById: {
    method: 'POST',
    path: '/auth/revoke-session-by-id',
    entry: 'functions/auth/revoke-session-by-id.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true, items: endsSessions },
    audit: ['impersonation.ended'],
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
    access: { table: 'readwrite', publicKeys: true, items: endsSessions },
    audit: ['impersonation.ended'],
    contract: { responses: { 200: Revoked }, errors: [...credentialErrors, 'forbidden'] },
  },
  updateUser: {
    method: 'POST',
    path: '/auth/update-user',
    entry: 'functions/auth/update-user.ts',
    errorStyle: 'app',
    auth: 'session',
    access: { table: 'readwrite', publicKeys: true, items: [...bySession, ...byKey, 'image'] },
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
    access: { table: 'read', items: ['image'] },
    contract: {
      params: ImagePath,
      headers: ConditionalGet,
      responses: { 200: { raw: 'image/*' }, 304: { raw: 'image/*' } },
      errors: ['notFound'],
    },
  },
  ...organizationRoutes,
  ...applicationRoutes,
  ...apiKeyRoutes,
  ...statisticsRoutes,
  ...impersonationRoutes,
  ...auditRoutes,
  ...userRoutes,
  ...tenantOrganizationRoutes,
  ...configurationRoutes,
  ...oauthDiscoveryRoutes,
  ...mcpRoutes,
  ...oauthTokenRoutes,
  ...oauthAuthorizeRoutes,
  ...recentAccountRoutes,
  ...socialRoutes,
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof routes;

/** Every route with its id, in table order. */
export const routeList: ReadonlyArray<RouteSpec & { readonly id: RouteId }> = (
  Object.keys(routes) as RouteId[]
).map((id) => ({ id, ...routes[id] }));
