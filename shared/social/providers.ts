/**
 * The four social providers: how each one's authorization server is found, what it is
 * asked for, and how its answer proves an email address. The protocol itself (PKCE, the token
 * request, ID token claims: `iss`, `aud`, `exp`, `nonce`) is oauth4webapi's; this file holds only
 * what differs between providers. docs/social-sign-in.md says what an owner registers with each.
 */
import * as oauth from 'oauth4webapi';
import type { Config } from '../config.ts';
import type { SocialProviderName } from '../tenancy/social-providers.ts';
import { providerCallOptions } from './provider-fetch.ts';

/** What a provider vouched for: a verified address, and the name a new account gets. */
export interface ProvenIdentity {
  email: string;
  name: string | undefined;
}

/** A refusal the flow shows: the provider's answer proved no verified address. */
export class UnverifiedEmail extends Error {
  override name = 'UnverifiedEmail';
}

/**
 * The authorization response names another issuer than the one the sign-in started at (RFC 9207
 * §2.4, https://www.rfc-editor.org/rfc/rfc9207#section-2.4): a mix-up, which the flow refuses as
 * such (oauth4webapi reports it like any other malformed response).
 */
export class WrongIssuer extends Error {
  override name = 'WrongIssuer';
}

export interface ProviderSetup {
  /** The display name on pages. */
  label: string;
  as: oauth.AuthorizationServer;
  /** Where the browser is sent: the server's https authorization endpoint. */
  authorizationEndpoint: string;
  /**
   * The authorization response as oauth4webapi then checks it, after its RFC 9207 `iss` is checked
   * here (throwing WrongIssuer): the server's own issuer, or for Microsoft one of a user's tenant,
   * which the template issuer cannot match.
   */
  responseParameters(query: URLSearchParams): URLSearchParams;
  scope: string;
  /** OpenID Connect: a nonce is sent and the ID token is required. */
  oidc: boolean;
  /**
   * The authorization server the token answer is checked against; `as` unless the issuer depends
   * on the answer (Microsoft: the user's tenant).
   */
  answerIssuer?(response: Response): Promise<oauth.AuthorizationServer>;
  /** Throws the provider's refusal where it answers one with 200 (GitHub), before the answer is processed. */
  refusalOf?(response: Response): Promise<void>;
  /** The verified identity from the token answer (the ID token's claims, or the provider's API). */
  identity(tokens: oauth.TokenEndpointResponse, client: oauth.Client): Promise<ProvenIdentity>;
}

const LABELS: Record<SocialProviderName, string> = {
  google: 'Google',
  github: 'GitHub',
  microsoft: 'Microsoft',
  oidc: 'OpenID Connect',
};
export const providerLabel = (name: SocialProviderName) => LABELS[name];

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/** OpenID Connect Core §5.1: `email` counts only with `email_verified: true`. */
function verifiedClaims(
  claims: oauth.JsonObject | undefined,
  verified: (claims: oauth.JsonObject) => boolean,
) {
  const email = asString(claims?.email);
  if (!claims || !email) throw new UnverifiedEmail('the provider sent no email address');
  if (!verified(claims)) throw new UnverifiedEmail(`the provider has not verified ${email}`);
  return { email, name: asString(claims.name) };
}

const emailVerified = (claims: oauth.JsonObject) => claims.email_verified === true;

const GOOGLE: oauth.AuthorizationServer = {
  issuer: 'https://accounts.google.com',
  authorization_endpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  token_endpoint: 'https://oauth2.googleapis.com/token',
};

/**
 * Microsoft Entra ID, any tenant (`common`): the ID token's issuer names the user's tenant, so it
 * is checked against that tenant's issuer, `tid` taken from the token (what openid-client does for
 * the same case). Entra's `email` claim is not verified by default (the
 * "nOAuth" account takeover): it counts only with the `xms_edov` optional claim true (the email's
 * domain is verified by its tenant), which the owner adds to the app registration
 * (docs/social-sign-in.md).
 */
const MICROSOFT: oauth.AuthorizationServer = {
  issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
  authorization_endpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
  token_endpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
};
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The tenant's issuer, by the `tid` of the answer's ID token (read, not trusted: oauth4webapi then checks `iss` equals it). */
async function entraIssuer(response: Response): Promise<oauth.AuthorizationServer> {
  let tid: string | undefined;
  try {
    const { id_token: idToken } = (await response.clone().json()) as { id_token?: unknown };
    const payload = typeof idToken === 'string' ? idToken.split('.')[1] : undefined;
    tid = payload ? asString(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).tid) : undefined;
  } catch {
    tid = undefined;
  }
  // Without a tenant the template stays, which no `iss` equals: oauth4webapi refuses the token.
  return tid && TENANT_ID.test(tid)
    ? { ...MICROSOFT, issuer: `https://login.microsoftonline.com/${tid}/v2.0` }
    : MICROSOFT;
}
const entraVerified = (claims: oauth.JsonObject) => claims.xms_edov === true || claims.xms_edov === '1';

/** GitHub's addresses: github.com, or (local mode and tests) SOCIAL_GITHUB_URL, GitHub Enterprise Server's layout. */
function githubUrls(config: Config) {
  const web = config.SOCIAL_GITHUB_URL?.replace(/\/+$/, '') ?? 'https://github.com';
  return { web, api: config.SOCIAL_GITHUB_URL ? `${web}/api/v3` : 'https://api.github.com' };
}

interface GitHubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

/** GitHub is OAuth 2.0 without OpenID Connect: the primary address, if verified, from `GET /user/emails`. */
function github(config: Config): ProviderSetup {
  const urls = githubUrls(config);
  const call = async (token: string, path: string): Promise<unknown> => {
    const response = await oauth.protectedResourceRequest(
      token,
      'GET',
      new URL(`${urls.api}${path}`),
      new Headers({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' }),
      null,
      providerCallOptions(config),
    );
    if (response.status !== 200)
      throw new oauth.OperationProcessingError(`GitHub ${path} answered ${response.status}`);
    return response.json();
  };
  return {
    label: LABELS.github,
    authorizationEndpoint: `${urls.web}/login/oauth/authorize`,
    as: {
      issuer: urls.web,
      authorization_endpoint: `${urls.web}/login/oauth/authorize`,
      token_endpoint: `${urls.web}/login/oauth/access_token`,
    },
    responseParameters: sameIssuer(urls.web),
    scope: 'read:user user:email',
    oidc: false,
    // GitHub answers a refused code with 200 and an `error` field ("Troubleshooting OAuth app access
    // token request errors"), which oauth4webapi would report as a missing access_token.
    async refusalOf(response) {
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as oauth.OAuth2Error | undefined;
      if (response.status === 200 && typeof body?.error === 'string') {
        throw new oauth.ResponseBodyError('GitHub refused the code', { cause: body, response });
      }
    },
    async identity(tokens) {
      const [emails, user] = await Promise.all([
        call(tokens.access_token, '/user/emails'),
        call(tokens.access_token, '/user'),
      ]);
      const primary = Array.isArray(emails)
        ? (emails as GitHubEmail[]).find((entry) => entry?.primary === true)
        : undefined;
      const email = asString(primary?.email);
      if (!email) throw new UnverifiedEmail('GitHub sent no primary email address');
      if (primary?.verified !== true) throw new UnverifiedEmail(`GitHub has not verified ${email}`);
      const profile = (user ?? {}) as { name?: unknown; login?: unknown };
      return { email, name: asString(profile.name) ?? asString(profile.login) };
    },
  };
}

function openIdConnect(
  label: string,
  as: oauth.AuthorizationServer,
  verified = emailVerified,
  tenant?: Pick<ProviderSetup, 'answerIssuer' | 'responseParameters'>,
): ProviderSetup {
  return {
    label,
    as,
    authorizationEndpoint: httpsEndpoint(as.authorization_endpoint, 'authorization_endpoint'),
    responseParameters: sameIssuer(as.issuer),
    ...tenant,
    scope: 'openid email profile',
    oidc: true,
    async identity(tokens) {
      return verifiedClaims(oauth.getValidatedIdTokenClaims(tokens), verified);
    },
  };
}

/** An endpoint of the server's metadata, which must be an https URL (else the provider is unusable). */
function httpsEndpoint(value: unknown, name: string): string {
  const url = typeof value === 'string' ? URL.parse(value) : null;
  if (url?.protocol !== 'https:') {
    throw new oauth.OperationProcessingError(`the provider's ${name} is not an https URL`);
  }
  return url.href;
}

/**
 * RFC 9207 `iss`, where the response has one: the server's own issuer. A repeated `iss` is left to
 * oauth4webapi, which refuses every repeated parameter.
 */
const sameIssuer =
  (issuer: string) =>
  (query: URLSearchParams): URLSearchParams => {
    const iss = query.getAll('iss');
    if (iss.length === 1 && iss[0] !== issuer) {
      throw new WrongIssuer('unexpected "iss" in the authorization response');
    }
    return query;
  };

/** RFC 9207 `iss` of a Microsoft tenant: checked here against the tenant pattern, then left to the ID token's check. */
function withoutTenantIssuer(query: URLSearchParams): URLSearchParams {
  const all = query.getAll('iss');
  if (all.length !== 1) return query;
  const tid = /^https:\/\/login\.microsoftonline\.com\/([^/]+)\/v2\.0$/.exec(all[0] as string)?.[1];
  if (!tid || !TENANT_ID.test(tid)) throw new WrongIssuer('unexpected "iss" in the authorization response');
  const rest = new URLSearchParams(query);
  rest.delete('iss');
  return rest;
}

/**
 * Discovery documents of generic issuers, per configuration (that is per container; a test builds one
 * per app, so an issuer at a port another file's app used is never met), for an hour (a failure is
 * not kept).
 */
const DISCOVERY_TTL_MS = 3600_000;
type Discovered = Map<string, { as: oauth.AuthorizationServer; until: number }>;
const discoveredBy = new WeakMap<Config, Discovered>();
const MAX_DISCOVERED = 100;

async function discover(config: Config, issuer: string, now: number): Promise<oauth.AuthorizationServer> {
  let discovered = discoveredBy.get(config);
  if (!discovered) {
    discovered = new Map();
    discoveredBy.set(config, discovered);
  }
  const cached = discovered.get(issuer);
  if (cached && cached.until > now) return cached.as;
  const url = new URL(issuer);
  const response = await oauth.discoveryRequest(url, { ...providerCallOptions(config), algorithm: 'oidc' });
  const as = await oauth.processDiscoveryResponse(url, response);
  // oauth4webapi checks only `issuer`: a document without usable endpoints is refused, never cached.
  httpsEndpoint(as.authorization_endpoint, 'authorization_endpoint');
  httpsEndpoint(as.token_endpoint, 'token_endpoint');
  if (discovered.size >= MAX_DISCOVERED) discovered.delete(discovered.keys().next().value as string);
  discovered.set(issuer, { as, until: now + DISCOVERY_TTL_MS });
  return as;
}

/** The setup of a provider; a generic issuer's is discovered (OpenID Connect Discovery 1.0). */
export async function providerSetup(
  config: Config,
  name: SocialProviderName,
  issuer: string | undefined,
  now: number,
): Promise<ProviderSetup> {
  switch (name) {
    case 'google':
      return openIdConnect(LABELS.google, GOOGLE);
    case 'microsoft':
      return openIdConnect(LABELS.microsoft, MICROSOFT, entraVerified, {
        answerIssuer: entraIssuer,
        responseParameters: withoutTenantIssuer,
      });
    case 'github':
      return github(config);
    case 'oidc':
      return openIdConnect(LABELS.oidc, await discover(config, issuer as string, now));
  }
}
