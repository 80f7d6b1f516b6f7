/**
 * `GET /oauth/authorize` (docs/oauth.md, "Authorization request"): the checks in the order that
 * decides where an error may go. Until the client and its redirect URI are known good, an error is
 * a 400 JSON answer, never a redirect (an unchecked redirect URI would make the server an open
 * redirector); after that every error goes back to the client's redirect URI with `iss` (RFC 9207)
 * and `state`: by a 302 when the browser has a platform session, else by a page with a link the
 * user may follow (anyone can be a client with any redirect URI, so an automatic redirect before
 * sign-in would be an open redirector, RFC 9700 §4.11.2). A browser without a platform session is
 * sent to the sign-in bridge; one with a session gets the consent page, or the page with the link
 * when its user holds no role. docs/oauth.md, "Authorization request", states the rules.
 */

import type * as z from 'zod/mini';
import type { AuthorizeQuery as AuthorizeQuerySchema } from '../contracts/oauth-authorize.ts';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newId, newSecret } from '../random.ts';
import { serviceUrl } from '../service-url.ts';
import type { ResolvedSession } from '../sessions/resolve.ts';
import { grantsOf } from '../store/oauth.ts';
import { putAuthorizationRequest } from '../store/oauth-requests.ts';
import { getApplication } from '../tenancy/applications.ts';
import { applicationOfResource } from '../tenancy/configuration.ts';
import { canonicalResource, ownMcpResource } from '../tenancy/service-resources.ts';
import { loadClientMetadata } from './client-metadata.ts';
import {
  AUTHORIZATION_REQUEST_TTL_SECONDS,
  type AuthorizationRequest,
  grantedScopes,
  SCOPES,
  type Scope,
} from './model.ts';
import { formTargetOf, matchesRedirectUri, redirectTargetLabel, redirectWith } from './redirect-uri.ts';
import { roleOnApplication } from './role.ts';

/** The authorization request's parameters as the chain parsed them (each a single string, or absent). */
export type AuthorizeQuery = z.output<typeof AuthorizeQuerySchema>;

/** What the consent page shows and posts back. */
export interface ConsentView {
  requestId: string;
  /** The synchronizer token of the consent form; only its hash is stored. */
  csrfToken: string;
  clientName: string;
  clientId: string;
  /** Who the checkbox names: the host of the client's metadata URL. */
  clientHost: string;
  redirectHost: string;
  applicationName: string;
  logoUrl: string | null;
  scopes: Scope[];
  /** The CSP `form-action` source the consent's 303 needs. */
  formTarget: string;
}

/** An error for the client that the user may carry back by following a link (never automatically). */
export interface RefusalView {
  error: string;
  description: string;
  /** Where the link leads, as the user reads it (redirectTargetLabel). */
  redirectHost: string;
  /** The redirect URI with `error`, `error_description`, `state` and `iss`. */
  location: string;
}

export type AuthorizeOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'refusal'; view: RefusalView }
  | { kind: 'sign-in'; location: string }
  | { kind: 'consent'; view: ConsentView };

/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is 43 characters of the base64url alphabet. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** RFC 6749 §3.1: a parameter sent more than once is an invalid request. */
function refuseRepeated(rawQuery: string): void {
  const seen = new Set<string>();
  for (const [name] of new URLSearchParams(rawQuery)) {
    if (seen.has(name)) throw fail('oauthInvalidRequest', `The parameter ${name} is repeated`);
    seen.add(name);
  }
}

export async function authorize(
  deps: Deps,
  input: { rawQuery: string; query: AuthorizeQuery; session: ResolvedSession | null },
): Promise<AuthorizeOutcome> {
  const { query, session } = input;
  refuseRepeated(input.rawQuery);
  if (!query.client_id) throw fail('invalidClient', 'client_id is required');
  const client = await loadClientMetadata(deps, query.client_id);
  if (!query.redirect_uri) throw fail('oauthInvalidRequest', 'redirect_uri is required');
  if (!matchesRedirectUri(client.redirectUris, query.redirect_uri)) {
    throw fail('oauthInvalidRequest', "redirect_uri is not one of the client's redirect URIs");
  }
  const redirectUri = query.redirect_uri;
  // From here on the redirect URI is the client's own: errors go back to it (docs/oauth.md,
  // "Authorization request", 3). By a 302 only to a client the signed-in user already trusts (a
  // live grant of theirs names it): anyone can publish a metadata document naming any redirect URI,
  // so for anyone else an automatic redirect would make the service an open redirector (RFC 9700
  // §4.11.2). Otherwise a page with a link.
  const refuse = async (error: string, description: string, page?: true): Promise<AuthorizeOutcome> => {
    const asPage = page === true || !session || !(await trustsClient(deps, session.user.id, client.clientId));
    const location = redirectWith(redirectUri, {
      error,
      error_description: description,
      iss: deps.config.ISSUER,
      state: query.state,
    });
    if (!asPage) return { kind: 'redirect', location };
    return {
      kind: 'refusal',
      view: { error, description, redirectHost: redirectTargetLabel(redirectUri), location },
    };
  };
  if (query.response_type !== 'code') {
    return refuse('unsupported_response_type', 'response_type must be code');
  }
  if (!query.code_challenge || !S256_CHALLENGE.test(query.code_challenge)) {
    return refuse('invalid_request', 'code_challenge is required: 43 base64url characters (PKCE S256)');
  }
  // docs/oauth.md, "Authorization request": the method may be left out, and then means S256, the
  // only one (plain is refused).
  if (query.code_challenge_method !== undefined && query.code_challenge_method !== 'S256') {
    return refuse('invalid_request', 'code_challenge_method must be S256');
  }
  const target = await resourceTarget(deps, query.resource, session !== null);
  if (!target) return refuse('invalid_target', 'resource is not a resource registered by an application');
  // RFC 6749 §4.1.2.1: a scope parameter that names no scope of the service is invalid_scope.
  if (query.scope !== undefined && !namesKnownScope(query.scope)) {
    return refuse('invalid_scope', `scope names none of the scopes ${SCOPES.join(', ')}`);
  }

  const base = {
    clientId: client.clientId,
    clientName: client.clientName,
    redirectUri,
    codeChallenge: query.code_challenge,
    resource: target.resource,
    applicationId: target.applicationId,
    ...(query.scope === undefined ? {} : { scope: query.scope }),
    ...(query.state === undefined ? {} : { state: query.state }),
    query: input.rawQuery,
  };
  const requestId = newId(deps.random, 'oar');
  const expiresAt = Math.floor(deps.clock.now() / 1000) + AUTHORIZATION_REQUEST_TTL_SECONDS;
  if (!session) {
    await store(deps, { ...base, requestId, expiresAt });
    return {
      kind: 'sign-in',
      location: serviceUrl(deps.config.ISSUER, `/oauth/login?request=${encodeURIComponent(requestId)}`),
    };
  }

  const held = await roleOnApplication(deps, session.user.id, target.applicationId);
  if (!held) return refuse('invalid_target', 'resource is not a resource registered by an application');
  const scopes = grantedScopes(query.scope, held.role);
  if (scopes.length === 0) {
    return refuse(
      'access_denied',
      'The user holds no role that grants a requested scope on this application',
      true,
    );
  }
  const csrfToken = newSecret(deps.random);
  await store(deps, {
    ...base,
    requestId,
    expiresAt,
    sessionId: session.session.id,
    csrfTokenHash: sha256Hex(csrfToken),
    shownScopes: scopes,
  });
  return {
    kind: 'consent',
    view: {
      requestId,
      csrfToken,
      clientName: client.clientName,
      clientId: client.clientId,
      clientHost: new URL(client.clientId).host,
      redirectHost: redirectTargetLabel(redirectUri),
      applicationName: held.application.name,
      logoUrl: held.application.logoUrl,
      scopes,
      formTarget: formTargetOf(redirectUri),
    },
  };
}

/** Whether the user holds a live grant of this client (one Query of their grants; only on an error path). */
async function trustsClient(deps: Deps, userId: string, clientId: string): Promise<boolean> {
  const grants = await grantsOf(deps.db, userId);
  return grants.some((grant) => grant.clientId === clientId && grant.revokedAt === undefined);
}

const namesKnownScope = (scope: string): boolean =>
  scope.split(' ').some((name) => (SCOPES as readonly string[]).includes(name));

async function store(deps: Deps, request: AuthorizationRequest): Promise<void> {
  const { outcome } = await putAuthorizationRequest(deps.db, request);
  if (outcome !== 'created') throw new Error('An authorization request id collided with a stored one');
}

/**
 * The application that registered `resource` (RFC 8707), or null, with the resource in its
 * canonical form (`canonicalResource`): what the code, the grant and the token's `aud` carry, never
 * the caller's spelling. The application's own MCP endpoint `<ISSUER>/mcp/<id>` counts for every
 * existing application (on the issuer's own scheme, which is http only locally); any other resource
 * must be an absolute https URI without fragment that an application's `oauth.resources` names.
 * With a session the role read that follows loads the application anyway, so its existence is
 * checked there.
 */
async function resourceTarget(
  deps: Deps,
  asked: string | undefined,
  roleReadFollows: boolean,
): Promise<{ resource: string; applicationId: string } | null> {
  const resource = asked === undefined ? null : canonicalResource(asked);
  if (!resource) return null;
  const ownPrefix = new URL(serviceUrl(deps.config.ISSUER, '/mcp/')).href;
  if (resource.startsWith(ownPrefix)) {
    const id = resource.slice(ownPrefix.length);
    if (id === '' || id.includes('/') || ownMcpResource(deps.config.ISSUER, id) !== resource) return null;
    if (!roleReadFollows && !(await getApplication(deps, id))) return null;
    return { resource, applicationId: id };
  }
  if (!resource.startsWith('https://')) return null;
  const applicationId = await applicationOfResource(deps, resource);
  return applicationId ? { resource, applicationId } : null;
}
