/**
 * The shape of a route-table entry (shared/routes.ts): the types every area's table is written
 * against, so the area tables (shared/route-table/) and the table itself never import each other.
 */
import type * as z from 'zod/v4/core';
import type { ErrorName } from './errors.ts';
import type { ItemFamily } from './store/keys.ts';
import type { AuditAction } from './tenancy/audit-actions.ts';
import type { Action } from './tenancy/permissions.ts';

/**
 * Every route function's timeout: lib/route-function.ts gives it to Lambda, and the local server
 * counts each invocation's remaining time from it, so both report the same deadline to the chain.
 */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/**
 * API Gateway's throttle of one route, for all callers together (per-caller limits are counters in the
 * table): `rate` requests a second on average, `burst` at once. lib/http-api.ts renders it into the
 * stage's route settings; a route without one gets `DEFAULT_THROTTLE`, the stage's.
 */
export interface RouteThrottle {
  readonly rate: number;
  readonly burst: number;
}

/**
 * The routes that send a sign-in email (`POST /auth/code/start`, the sign-in bridge's `POST /oauth/login`):
 * 10 a second each stays under SES's default production sending rate (14 a second) for either alone;
 * together they could exceed it, which the hourly cap on sign-in emails bounds (`maxCodeEmailsPerHour`).
 */
export const MAIL_THROTTLE: RouteThrottle = { rate: 10, burst: 20 };

/** The routes that check a sign-in code (verify, approve, the bridge's verify), and social start and exchange. */
export const CODE_CHECK_THROTTLE: RouteThrottle = { rate: 25, burst: 50 };

/** The stage-wide throttle, which every route without its own `throttle` gets. */
export const DEFAULT_THROTTLE: RouteThrottle = { rate: 100, burst: 200 };

/**
 * What a route's function may touch in AWS apart from which partitions of the table: routes that
 * declare the same share one execution role (lib/access-roles.ts). Each property opens one port of
 * the deps, whose adapter a bundle holds only when some property opens it (shared/route-access.ts).
 */
export interface AccessProfile {
  /** DynamoDB table access, to the partitions of `items` only. */
  readonly table?: 'read' | 'readwrite';
  /** `kms:Sign` on the signing key (RSASSA_PKCS1_V1_5_SHA_256 over a DIGEST only). */
  readonly sign?: boolean;
  /** `kms:GetPublicKey` on the signing key (to verify tokens or publish the JWKS). */
  readonly publicKeys?: boolean;
  /** `ses:SendEmail` from the sender identity. */
  readonly mail?: boolean;
  /**
   * `secretsmanager:GetSecretValue` on the sign-in code-hash key: the routes that hash codes
   * (docs/security.md, The code-hash key).
   */
  readonly codeKey?: boolean;
  /**
   * The secret-sealing key (docs/security.md, Provider client secrets): `encrypt` (`kms:Encrypt`) for
   * the routes that store an owner's OAuth client secret, `decrypt` (`kms:Decrypt`) for the one that
   * uses it; either only with the encryption context `{ applicationId }`.
   */
  readonly seal?: 'encrypt' | 'decrypt';
  /**
   * A role of its own, under this name, for a route whose item families must not widen the shared
   * role of the routes that declare the same access otherwise (docs/security.md, Access profiles):
   * a shared role holds the union of its routes' families.
   */
  readonly role?: string;
}

/** A route that touches no table declares no item family. */
interface NoTable {
  readonly table?: undefined;
  readonly items?: undefined;
}

/** A route that touches the table names every item family it touches, at least one. */
interface TableItems {
  readonly table: 'read' | 'readwrite';
  /**
   * The item families (shared/store/keys.ts `keyFamilies`) its function touches, those of its
   * credentials included (docs/data-model.md, Item families and table grants): its role's
   * `dynamodb:LeadingKeys` condition names their partitions and no other.
   */
  readonly items: readonly [ItemFamily, ...ItemFamily[]];
}

/**
 * What a route's function may touch in AWS, declared once in its entry: its role's IAM statements
 * and `dynamodb:LeadingKeys` conditions (lib/grants.ts), the adapters its bundle holds
 * (lib/bundling.ts) and the ports it gets at run time (shared/deps.ts) all derive from it.
 */
export type RouteAccess = AccessProfile & (NoTable | TableItems);

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * `app`: the platform error envelope (docs/api.md, Endpoints); `oauth`: RFC 6749 error objects;
 * `mcp`: JSON-RPC errors; `html`: an HTML error page, for the pages a browser navigates to (the
 * OAuth sign-in bridge and consent), where a JSON body would leave the user in front of raw text.
 */
export type ErrorStyle = 'app' | 'oauth' | 'mcp' | 'html';

/**
 * Which credentials the chain reads and what it refuses, resolved into a typed caller
 * (shared/sessions/caller.ts). shared/auth-modes.ts says what each mode reads and refuses, a record
 * over this type (docs/api.md, Auth modes).
 */
export type AuthMode =
  | 'none'
  | 'key-optional'
  | 'secret-key'
  | 'api-key'
  | 'session'
  | 'session-optional'
  | 'sign-out'
  | 'manage'
  | 'impersonation'
  | 'platform-cookie';

/**
 * How a request body is encoded; the chain answers 415 for any other content type. A JSON body is
 * accepted as any JSON media type (`application/json`, `application/<x>+json`); `mergePatch` marks
 * an RFC 7396 merge patch, which the OpenAPI document offers as `application/merge-patch+json` too.
 */
export type BodySpec =
  | { readonly json: z.$ZodType; readonly mergePatch?: true }
  | { readonly form: z.$ZodType };

/**
 * An answer the chain passes on as bytes, unparsed (an image, a page, the MCP SDK's JSON-RPC):
 * the handler gives its bytes and type.
 */
export interface RawResponse {
  /** The media type(s) it may have, e.g. `image/*`. */
  readonly raw: string;
  /**
   * What JSON bytes hold, for the OpenAPI document only: the chain never parses a raw answer, and
   * test/http/openapi-answers.test.ts checks the answers the tests record against it.
   */
  readonly schema?: z.$ZodType;
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
  /**
   * More paths the same function answers, each its own API Gateway route key: a greedy
   * `/x/{proxy+}` matches no request for `/x` itself, so a page served under `/x` names both.
   */
  readonly alsoAt?: readonly string[];
  /** Handler module, relative to the repository root; it exports `handler`. */
  readonly entry: string;
  /**
   * What the route does, for its callers: a first sentence that is its OpenAPI `summary`, then what
   * a caller must know (one to three sentences). The route checklist names a route without one.
   */
  readonly description?: string;
  readonly errorStyle: ErrorStyle;
  readonly auth: AuthMode;
  readonly access: RouteAccess;
  readonly contract: RouteContract;
  /**
   * Management routes (auth `manage`): the action of the permission matrix the caller must hold on
   * its target, and where the target's id comes from (`params.organizationId`,
   * `params.applicationId`, or the same field of the body). The chain decides before the handler runs.
   */
  readonly permission?: Permission;
  /**
   * The audit actions a committed change of this route records (shared/tenancy/audit-actions.ts),
   * one entry per change, in the change's own transaction: every management route that changes
   * state declares at least one (test/http/audit-trail.test.ts proves each writes exactly one, and
   * none for a refused or no-op request). The chain gives such a route its `audit` request (who, from where).
   */
  readonly audit?: readonly AuditAction[];
  /** Its own API Gateway throttle; without one the route shares the stage's `DEFAULT_THROTTLE`. */
  readonly throttle?: RouteThrottle;
  /**
   * Its function gets the deploy's `reservedConcurrency` (lib/doorcode-stack.ts): the routes that must
   * keep answering when the account's other functions take its concurrency (sign-in by code).
   */
  readonly reserved?: true;
}

interface Permission {
  readonly action: Action;
  /** Where the target's id is read; absent for actions on the caller's own platform account. */
  readonly from?: 'params' | 'body';
}

/** The chain's own refusals of a body it cannot read, common to every route that takes one. */
export const bodyErrors = ['invalidRequest', 'payloadTooLarge', 'unsupportedMediaType'] as const;

/** Errors every authenticated route may answer on top of its own. */
export const credentialErrors = ['unauthorized'] as const;

/**
 * Errors of every management route: no credential, a role or key that may not, an unknown target,
 * and a path or query that is not valid (an id over 100 characters, a bad page).
 */
export const manageErrors = [...credentialErrors, 'forbidden', 'notFound', 'invalidRequest'] as const;
/** Writes that can lose a race to DynamoDB's transaction conflicts answer 429 busy. */
export const writeErrors = [...bodyErrors, ...manageErrors, 'rateLimited'] as const;
