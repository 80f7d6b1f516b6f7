/**
 * Social sign-in: an application's end user signs in with the application owner's own
 * OAuth client at Google, GitHub, Microsoft or an OpenID Connect issuer. Three steps, each its own
 * route (docs/social-sign-in.md):
 * 1. start: the browser is sent to the provider with `state`, PKCE (S256) and, for OpenID
 *    Connect, a `nonce`, all kept server-side for 10 minutes and usable once;
 * 2. callback: the provider's code is exchanged, its verified address is the proof (as a code is
 *    in sign-in by email), the first success creates the account exactly like code sign-in, and
 *    the browser returns to a return URL the owner registered, with a one-time exchange
 *    code (never a token in a URL);
 * 3. exchange: the application (its SDK or back end, with its key) trades the code for the
 *    SignInResult, in the sign-in transaction of code sign-in (shared/sign-in/complete.ts).
 */
import * as oauth from 'oauth4webapi';
import { sameDigest, sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { type AppError, fail, retryLater } from '../errors.ts';
import { Email } from '../identity/email.ts';
import { newSecret, newWriteId } from '../random.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogRead } from '../rate-limit/rate-limit.ts';
import { serviceUrl } from '../service-url.ts';
import { rememberAccount } from '../sessions/recent-accounts.ts';
import { refuseDisabled } from '../sign-in/check-code.ts';
import {
  type CompleteInput,
  completeSignIn,
  newAccount,
  newUser,
  type SignInResult,
} from '../sign-in/complete.ts';
import { CODE_TTL_SECONDS } from '../sign-in/request.ts';
import { type AccountRecord, readAccount } from '../store/accounts.ts';
import { applicationRead } from '../store/applications.ts';
import { readRecords } from '../store/reads.ts';
import {
  createSocialAccount,
  putSocialCode,
  putSocialState,
  readSocialCode,
  type SocialCode,
  type SocialState,
  socialCodeSpend,
  takeSocialState,
} from '../store/social.ts';
import { type Application, applicationFromRecord } from '../tenancy/applications.ts';
import { httpsUri } from '../tenancy/https-uri.ts';
import { SOCIAL_PROVIDERS, type SocialProviderName } from '../tenancy/social-providers.ts';
import { bindBrowser, isBoundBrowser } from './browser-binding.ts';
import { ProviderUnreachable, providerCallOptions } from './provider-fetch.ts';
import {
  type ProvenIdentity,
  type ProviderSetup,
  providerLabel,
  providerSetup,
  UnverifiedEmail,
  WrongIssuer,
} from './providers.ts';

/** The state lives as long as a sign-in code (10 minutes). */
export const SOCIAL_STATE_TTL_MS = CODE_TTL_SECONDS * 1000;
/** The exchange code: long enough for a page load and one back-end call, short enough to leak little. */
export const SOCIAL_CODE_TTL_MS = 120_000;

/** The provider's callback on this service: what the owner registers with the provider. */
export const callbackUrl = (issuer: string, applicationId: string, provider: SocialProviderName) =>
  serviceUrl(issuer, `/auth/social/${applicationId}/${provider}/callback`);

const unknownApplication = () => fail('notFound', 'This application does not exist');
const notEnabled = (app: Application, provider: SocialProviderName) =>
  fail('notFound', `${app.name} does not offer sign-in with ${providerLabel(provider)}`);

/** Whether the application offers sign-in with `provider`: enabled, with its secret. */
const offers = (app: Application, provider: SocialProviderName): boolean => {
  const settings = app.configuration.socialProviders[provider];
  return Boolean(settings?.enabled && settings.clientSecret);
};

/** The providers the application offers, in the order of SOCIAL_PROVIDERS (its sign-in page's buttons). */
export const offeredProviders = (app: Application): SocialProviderName[] =>
  SOCIAL_PROVIDERS.filter((provider) => offers(app, provider));

/** The provider's settings when the application offers it (enabled, with its secret), else 404. */
function enabledProvider(app: Application, provider: SocialProviderName) {
  const settings = app.configuration.socialProviders[provider];
  if (!settings || !offers(app, provider)) throw notEnabled(app, provider);
  return { ...settings, issuer: 'issuer' in settings ? settings.issuer : undefined };
}

/**
 * Where the browser returns: one of the return URLs the owner registered (matched exactly), the
 * first of them when none is asked for. Never an unregistered URL, and not the official origin an
 * application may have learned from a first request with its public key (shared/tenancy/origin-learning.ts):
 * that is not the owner's word.
 */
export function returnUrl(app: Application, asked: string | undefined): string {
  const registered = app.configuration.socialReturnUrls;
  if (asked === undefined) {
    const [first] = registered;
    if (!first) {
      throw fail('invalidRequest', `${app.name} has registered no return URL for social sign-in`, {
        field: 'return_to',
      });
    }
    return first;
  }
  // The registered URLs are stored normalised (shared/tenancy/https-uri.ts): compare like with like.
  const normal = httpsUri(asked);
  if (normal === null || !registered.includes(normal)) {
    // The value is not repeated: the service's own page must not show text a link put there.
    throw fail('invalidRequest', `This return URL is not one ${app.name} registered`, {
      field: 'return_to',
    });
  }
  return asked;
}

/** A provider failure as the page shows it; the detail (never a secret) goes to the log. */
function providerError(deps: Deps, label: string, error: unknown): AppError {
  if (error instanceof UnverifiedEmail) {
    return fail('emailNotVerified', `${label} did not vouch for your email address: ${error.message}`);
  }
  deps.logger.log('warn', 'social provider failed', {
    provider: label,
    error: (error as Error).name,
    detail: error instanceof oauth.ResponseBodyError ? error.error : (error as Error).message,
  });
  if (error instanceof ProviderUnreachable)
    return fail('providerFailed', `${label} could not be reached; try again`);
  // A refused code (a wrong secret, a PKCE mismatch, a used code) is the provider's answer about this
  // sign-in, not a failure of the service: 403, so a caller cannot raise the 5xx alarm at will.
  if (error instanceof oauth.ResponseBodyError) {
    return fail('providerDenied', `${label} refused the sign-in (${error.error}); start again`);
  }
  return fail('providerFailed', `${label} answered something this service cannot use; start again`);
}

async function setupOf(deps: Deps, label: string, provider: SocialProviderName, issuer: string | undefined) {
  try {
    return await providerSetup(deps.config, provider, issuer, deps.clock.now());
  } catch (error) {
    throw providerError(deps, label, error);
  }
}

export interface StartInput {
  applicationId: string;
  provider: SocialProviderName;
  returnTo: string | undefined;
  appState: string | undefined;
  /** RFC 7636 S256 challenge of the application page's verifier. */
  appChallenge: string;
  ip: string;
  /** The request's cookies: the browser's binding (shared/social/browser-binding.ts) is kept. */
  cookies: readonly string[];
}

/**
 * `GET /auth/social/{applicationId}/{provider}`: the provider's authorization URL. ONE BatchGetItem
 * (application, the IP's limit log), the limit's UpdateItem, ONE PutItem (the state); a generic
 * issuer's discovery document once an hour per container.
 */
export async function startSocialSignIn(
  deps: Deps,
  input: StartInput,
): Promise<{ location: string; cookie: string }> {
  const found = await readRecords(deps.db, {
    application: applicationRead(input.applicationId),
    limitLog: rateLogRead(limits.socialStartPerIp, input.ip),
  });
  await consume(deps, limits.socialStartPerIp, input.ip, found.limitLog);
  if (!found.application) throw unknownApplication();
  const app = applicationFromRecord(found.application);
  const settings = enabledProvider(app, input.provider);
  const returnTo = returnUrl(app, input.returnTo);
  const label = providerLabel(input.provider);
  const setup = await setupOf(deps, label, input.provider, settings.issuer);

  const state = newSecret(deps.random);
  const codeVerifier = newSecret(deps.random);
  const browser = bindBrowser(deps.config, deps.random, input.cookies);
  const nonce = setup.oidc ? newSecret(deps.random) : undefined;
  await putSocialState(deps.db, sha256Hex(state), {
    applicationId: app.id,
    provider: input.provider,
    codeVerifier,
    ...(nonce ? { nonce } : {}),
    browserHash: browser.hash,
    ...(settings.issuer === undefined ? {} : { issuer: settings.issuer }),
    returnTo,
    ...(input.appState === undefined ? {} : { appState: input.appState }),
    appChallenge: input.appChallenge,
    validUntil: deps.clock.now() + SOCIAL_STATE_TTL_MS,
  });
  const url = new URL(setup.authorizationEndpoint);
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', callbackUrl(deps.config.ISSUER, app.id, input.provider));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', setup.scope);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (nonce) url.searchParams.set('nonce', nonce);
  return { location: url.href, cookie: browser.cookie };
}

export interface CallbackInput {
  applicationId: string;
  provider: SocialProviderName;
  /** The callback's whole query, as the provider sent it. */
  query: URLSearchParams;
  ip: string;
  cookies: readonly string[];
}

const unknownState = () =>
  fail(
    'invalidRequest',
    'This sign-in is unknown, was already used or has expired (it lasts 10 minutes); start again',
  );

/**
 * `GET /auth/social/{applicationId}/{provider}/callback`: the state taken (ONE UpdateItem, so it
 * works once), the code exchanged with the provider (the client secret opened: ONE KMS Decrypt),
 * the address proved, the account read (ONE GetItem) and, on a first sign-in, created with the
 * exchange code in ONE TransactWriteItems (otherwise ONE PutItem of the code). Before all that,
 * ONE BatchGetItem (application, the IP's limit log) and the limit's UpdateItem.
 */
export async function finishSocialSignIn(
  deps: Deps,
  input: CallbackInput,
): Promise<{ location: string; cookies: string[] }> {
  const found = await readRecords(deps.db, {
    application: applicationRead(input.applicationId),
    limitLog: rateLogRead(limits.socialCallbackPerIp, input.ip),
  });
  await consume(deps, limits.socialCallbackPerIp, input.ip, found.limitLog);
  const stateParam = input.query.get('state');
  if (!stateParam) throw unknownState();
  const state = await takeSocialState(deps.db, sha256Hex(stateParam), newWriteId(deps.random));
  if (!state || state.validUntil <= deps.clock.now()) throw unknownState();
  if (state.applicationId !== input.applicationId || state.provider !== input.provider) {
    throw fail('forbidden', 'This sign-in was started for another application or provider; start again');
  }
  // Login CSRF: only the browser that started the sign-in may finish it.
  if (!isBoundBrowser(deps.config, input.cookies, state.browserHash)) {
    throw fail('forbidden', 'This sign-in was started in another browser; start again here');
  }
  const label = providerLabel(input.provider);
  if (!found.application) throw unknownApplication();
  const app = applicationFromRecord(found.application);
  const settings = enabledProvider(app, input.provider);
  // Mix-up: a code of the issuer the sign-in started at goes to no other issuer's token endpoint.
  if (settings.issuer !== state.issuer) {
    throw fail('forbidden', `${label} sign-in changed since this sign-in started; start again`);
  }
  const setup = await setupOf(deps, label, input.provider, settings.issuer);
  const client: oauth.Client = { client_id: settings.clientId };
  const parameters = authorizationResponse(label, setup, client, input.query);
  const identity = await provenIdentity(deps, {
    app,
    provider: input.provider,
    label,
    setup,
    client,
    settings,
    state,
    parameters,
  });

  const code = newSecret(deps.random);
  const userId = await signInAccount(deps, app.id, identity, {
    hash: sha256Hex(code),
    appChallenge: state.appChallenge,
  });
  const remembered = await rememberAccount(deps, input.cookies, { userId, scope: app.id });
  const location = new URL(state.returnTo);
  location.searchParams.set('code', code);
  if (state.appState !== undefined) location.searchParams.set('state', state.appState);
  return { location: location.href, cookies: [remembered] };
}

/**
 * The provider's redirect, checked before anything is sent to the provider: RFC 9207 `iss` (also
 * on an error response, https://www.rfc-editor.org/rfc/rfc9207#section-2), each parameter at most
 * once, no JARM `response` and no implicit or hybrid tokens (oauth4webapi), then the RFC 6749
 * §4.1.2.1 `error` and a `code`. Whatever fails here came with the browser, not from the provider,
 * and anyone with a state of their own can send it: a 4xx, never the 502 of a failing provider that
 * the Api5xx alarm counts (docs/social-sign-in.md, "What the user sees when it fails").
 */
function authorizationResponse(
  label: string,
  setup: ProviderSetup,
  client: oauth.Client,
  query: URLSearchParams,
): URLSearchParams {
  const unusable = () =>
    fail(
      'invalidRequest',
      `The answer from ${label} cannot be used (a parameter is repeated or unexpected); start again`,
    );
  let parameters: URLSearchParams;
  try {
    // `state` is already checked: it was taken from the table by its hash.
    parameters = oauth.validateAuthResponse(
      setup.as,
      client,
      setup.responseParameters(query),
      oauth.skipStateCheck,
    );
  } catch (error) {
    if (error instanceof WrongIssuer) {
      throw fail('forbidden', `This answer did not come from ${label}; start again`);
    }
    if (error instanceof oauth.AuthorizationResponseError) {
      const description = error.error_description;
      throw fail(
        'providerDenied',
        `${label} did not sign you in (${error.error.slice(0, 64)}${description ? `: ${description.slice(0, 200)}` : ''})`,
      );
    }
    if (
      error instanceof oauth.UnsupportedOperationError ||
      (error instanceof oauth.OperationProcessingError && error.code === oauth.INVALID_RESPONSE)
    ) {
      throw unusable();
    }
    throw error;
  }
  // oauth4webapi reads `code` only at the token request, where a repeated one would pass for the provider's fault.
  const codes = parameters.getAll('code');
  if (codes.length > 1) throw unusable();
  if (!codes[0]) throw fail('invalidRequest', `${label} sent no code back; start again`);
  return parameters;
}

interface Proof {
  app: Application;
  provider: SocialProviderName;
  label: string;
  setup: ProviderSetup;
  client: oauth.Client;
  settings: { clientSecret: { sealed: string } | null };
  state: SocialState;
  /** The authorization response as authorizationResponse accepted it. */
  parameters: URLSearchParams;
}

/** The code exchanged at the provider (the client secret opened only here) and the verified address it proves. */
async function provenIdentity(deps: Deps, proof: Proof): Promise<ProvenIdentity> {
  const { setup, client, settings, state } = proof;
  const options = providerCallOptions(deps.config);
  // The service's own KMS call: its failure is ours (500), never shown as the provider's.
  const secret = await deps.sealer.open(proof.app.id, settings.clientSecret?.sealed as string);
  let identity: ProvenIdentity;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      setup.as,
      client,
      clientAuthentication(setup, secret),
      proof.parameters,
      callbackUrl(deps.config.ISSUER, proof.app.id, proof.provider),
      state.codeVerifier,
      options,
    );
    await setup.refusalOf?.(response);
    const answerAs = setup.answerIssuer ? await setup.answerIssuer(response) : setup.as;
    const tokens = await oauth.processAuthorizationCodeResponse(answerAs, client, response, {
      ...(state.nonce ? { expectedNonce: state.nonce } : {}),
      requireIdToken: setup.oidc,
    });
    identity = await setup.identity(tokens, client);
  } catch (error) {
    throw providerError(deps, proof.label, error);
  }
  const email = Email.safeParse(identity.email);
  if (!email.success) {
    throw fail('emailNotVerified', `${proof.label} sent an address this service cannot use`);
  }
  return { email: email.data, name: identity.name?.slice(0, 100) };
}

/**
 * How the client authenticates at the token endpoint: HTTP Basic where the provider supports it
 * (RFC 6749 §2.3.1 says it must), the form where it supports only that, GitHub by the form (its
 * documented way).
 */
function clientAuthentication(setup: ProviderSetup, secret: string): oauth.ClientAuth {
  const methods = setup.as.token_endpoint_auth_methods_supported;
  const basic = setup.oidc && (!methods || methods.includes('client_secret_basic'));
  return basic ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret);
}

/**
 * The account of the proved address, created on its first sign-in (docs/api.md, "Social sign-in":
 * the same account as code sign-in, one per address per application under any concurrency), with
 * the exchange code stored for it. A disabled account is refused before any code exists.
 */
async function signInAccount(
  deps: Deps,
  applicationId: string,
  identity: ProvenIdentity,
  code: { hash: string; appChallenge: string },
): Promise<string> {
  const codeHash = code.hash;
  const now = deps.clock.now();
  const record = (userId: string): SocialCode => ({
    applicationId,
    userId,
    email: identity.email,
    appChallenge: code.appChallenge,
    validUntil: now + SOCIAL_CODE_TTL_MS,
  });
  const existing = async (account: AccountRecord): Promise<string> => {
    refuseDisabled(account);
    const userId = account.userId;
    await putSocialCode(deps.db, codeHash, record(userId));
    return userId;
  };
  const account = await readAccount(deps.db, applicationId, identity.email);
  if (account) return existing(account);
  const createdAt = new Date(now).toISOString();
  const user = newUser(deps, { scope: applicationId, ...identity }, createdAt);
  const created = await createSocialAccount(deps.db, newAccount(deps, user, applicationId), {
    hash: codeHash,
    code: record(user.id),
  });
  if (created.outcome === 'created') return user.id;
  if (created.outcome === 'gone') throw unknownApplication();
  // The state is spent: the user starts again rather than retrying this callback.
  if (created.outcome === 'conflict') {
    throw retryLater('rateLimited', () => 'The service is busy; start the sign-in again', 1, {
      reason: 'busy',
    });
  }
  // Another sign-in created the account first: this one signs in to it.
  const raced = await readAccount(deps.db, applicationId, identity.email);
  if (!raced) throw fail('accountChanged', 'The account changed during sign-in; start the sign-in again');
  return existing(raced);
}

const unusableCode = () =>
  fail('socialCodeUnusable', 'This sign-in code is unknown, was already used or has expired; sign in again');

export interface ExchangeInput {
  code: string;
  /** RFC 7636: the verifier of the challenge the start was given. */
  codeVerifier: string;
  /** The application of the caller's key: a code works only for the application it was made for. */
  applicationId: string;
  sourceIp: string;
  userAgent: string;
  remainingMs: CompleteInput['remainingMs'];
}

/**
 * `POST /auth/social/exchange`: the SignInResult of a callback's code, once. ONE GetItem (the
 * code), ONE GetItem (the account), then code sign-in's transaction with the code's Delete as its
 * spend, and its one Sign; before it, the key's caller (two GetItem: the key, the application; its
 * use noted once a minute). docs/data-model.md, "Calls per request", holds the counts.
 */
export async function exchangeSocialCode(deps: Deps, input: ExchangeInput): Promise<SignInResult> {
  const codeHash = sha256Hex(input.code);
  const code = await readSocialCode(deps.db, codeHash);
  if (!code || code.applicationId !== input.applicationId || code.validUntil <= deps.clock.now()) {
    throw unusableCode();
  }
  // Another page's (or browser's) code: the verifier is the page's own. A wrong one does not spend
  // the code, so a guess costs the real page nothing (and 256-bit verifiers are not guessed).
  const challenge = Buffer.from(code.appChallenge, 'base64url').toString('hex');
  if (!sameDigest(sha256Hex(input.codeVerifier), challenge)) throw unusableCode();
  const account = await readAccount(deps.db, code.applicationId, code.email);
  // Deleted (and perhaps made again) since the callback: that sign-in is void.
  if (!account || account.userId !== code.userId) throw unusableCode();
  refuseDisabled(account);
  return completeSignIn(deps, {
    subject: { scope: code.applicationId, email: code.email },
    spend: (now) => socialCodeSpend(deps.db.table, codeHash, { applicationId: code.applicationId, now }),
    account,
    // The caller's key was read with its application this request: it exists.
    scopeExists: true,
    raced: unusableCode,
    userAgent: input.userAgent,
    sourceIp: input.sourceIp,
    remainingMs: input.remainingMs,
  });
}
