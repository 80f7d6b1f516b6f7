/**
 * The sign-in bridge: between `GET /oauth/authorize` and the consent page, a browser
 * without a platform session signs in by emailed code on the service's own pages. It calls the same
 * domain functions as `POST /auth/code/start` and `/auth/code/verify` on the platform (no key), with
 * the client's IP, so the same limits hold (per IP, per address, 5 attempts) and the first
 * code creates the platform account. docs/oauth.md, "Sign-in bridge".
 */
import type { Deps } from '../deps.ts';
import { AppError, fail } from '../errors.ts';
import { serviceUrl } from '../service-url.ts';
import { postedByServicePage, sessionCookie } from '../sessions/cookies.ts';
import {
  type BridgeChoice,
  bridgeChoices,
  forgetRecentAccount,
  maskEmail,
  recentPlatformAddress,
  rememberAccount,
} from '../sessions/recent-accounts.ts';
import { startSignIn } from '../sign-in/start.ts';
import { verifySignIn } from '../sign-in/verify.ts';
import { PLATFORM } from '../store/keys.ts';
import { readAuthorizationRequest } from '../store/oauth-requests.ts';
import { getApplication } from '../tenancy/applications.ts';
import type { AuthorizationRequest } from './model.ts';
import type { Brand } from './pages/brand.ts';
import { formTargetOf } from './redirect-uri.ts';

/** Where the browser is and who it is: the sign-in limits count by IP; the forms must be the service's own. */
export interface BridgeClient {
  ip: string;
  userAgent: string;
  origin: string | undefined;
  fetchSite: string | undefined;
  /** The request's cookies: the recent accounts list (shared/sessions/recent-accounts.ts) is one. */
  cookies: readonly string[];
}

const unknownRequest = () =>
  fail('invalidRequest', 'This sign-in request is unknown or has expired (it lasts 10 minutes)');

async function pending(deps: Deps, requestId: string): Promise<AuthorizationRequest> {
  const request = await readAuthorizationRequest(deps.db, requestId, Math.floor(deps.clock.now() / 1000));
  if (!request) throw unknownRequest();
  return request;
}

async function brandOf(deps: Deps, request: AuthorizationRequest): Promise<Brand> {
  const application = await getApplication(deps, request.applicationId);
  if (!application) throw unknownRequest();
  return { applicationName: application.name, logoUrl: application.logoUrl };
}

/**
 * A sign-in form may only be posted by the service's own page (login CSRF: another site could sign
 * the browser in to the attacker's account): the consent's rule, ISSUER's origin only.
 */
function ownPageOnly(deps: Deps, client: BridgeClient): void {
  if (!postedByServicePage(deps.config, client)) {
    throw fail('forbidden', "The sign-in form must be sent from this service's own page");
  }
}

/**
 * `GET /oauth/login`: the pending request and the application to show (two GetItem), and the
 * browser's recent platform accounts as one-click choices (docs/oauth.md, "Recent accounts"; with a
 * valid cookie only, one BatchGetItem and the IP's limit).
 */
export async function bridgePage(
  deps: Deps,
  input: { requestId: string; cookies: readonly string[]; ip: string },
): Promise<{ brand: Brand; choices: BridgeChoice[] }> {
  const brand = await brandOf(deps, await pending(deps, input.requestId));
  return { brand, choices: await bridgeChoices(deps, input) };
}

/**
 * `POST /oauth/login/forget`: the email page's "Forget" button (docs/oauth.md, "Recent accounts").
 * The account leaves the browser's list by `DELETE /recent-accounts/{userId}`'s own rule, and the
 * browser goes back to the email page of the same request with the new cookie.
 */
export async function forgetBridgeChoice(
  deps: Deps,
  input: { requestId: string; account: string; client: BridgeClient },
): Promise<{ cookie: string; returnTo: string }> {
  ownPageOnly(deps, input.client);
  await pending(deps, input.requestId);
  const { cookie } = await forgetRecentAccount(deps, { ...input.client, userId: input.account });
  return {
    cookie,
    returnTo: serviceUrl(deps.config.ISSUER, `/oauth/login?request=${encodeURIComponent(input.requestId)}`),
  };
}

/** The code form's page: the application, and the CSP source of the client's redirect URI. */
export interface CodeFormView {
  brand: Brand;
  clientTarget: string;
}

/** The address a start is for: typed in, or resolved from a recent account of the browser. */
async function addressOf(
  deps: Deps,
  input: { email?: string | undefined; account?: string | undefined; client: BridgeClient },
): Promise<string> {
  if ((input.email === undefined) === (input.account === undefined)) {
    throw fail('invalidRequest', 'Send either an email address or one of your recent accounts');
  }
  if (input.email !== undefined) return input.email;
  return recentPlatformAddress(deps, {
    cookies: input.client.cookies,
    ip: input.client.ip,
    userId: input.account ?? '',
  });
}

/** `POST /oauth/login`: sends the code exactly as `POST /auth/code/start` on the platform does. */
export async function startBridgeSignIn(
  deps: Deps,
  input: {
    requestId: string;
    email?: string | undefined;
    account?: string | undefined;
    client: BridgeClient;
  },
): Promise<CodeFormView & { to: CodeRecipient }> {
  ownPageOnly(deps, input.client);
  const request = await pending(deps, input.requestId);
  const brand = await brandOf(deps, request);
  const email = await addressOf(deps, input);
  await startSignIn(deps, {
    scope: PLATFORM,
    applicationId: null,
    email,
    sourceIp: input.client.ip,
    userAgent: input.client.userAgent,
  });
  return { brand, clientTarget: formTargetOf(request.redirectUri), to: recipientOf(input, email) };
}

/**
 * Whom the code page names: the address the user typed, or, for a recent account, only its masked
 * form and id: one click must not show the full address of an account this browser merely remembers.
 */
export type CodeRecipient = { email: string } | { account: string; masked: string };

const recipientOf = (input: { account?: string | undefined }, email: string): CodeRecipient =>
  input.account === undefined ? { email } : { account: input.account, masked: maskEmail(email) };

export type BridgeVerifyOutcome =
  | { outcome: 'signed-in'; cookies: string[]; returnTo: string }
  | ({ outcome: 'wrong-code'; attemptsLeft: number | undefined; to: CodeRecipient } & CodeFormView);

/**
 * `POST /oauth/login/verify`: checks the code exactly as `POST /auth/code/verify` does; on success
 * the browser goes back to the original authorization request, now with a session. A wrong code
 * with attempts left is the form again; every other refusal (expired, fifth attempt, rate limited)
 * is the error itself, which the route answers as an HTML page with its status.
 */
export async function verifyBridgeSignIn(
  deps: Deps,
  input: {
    requestId: string;
    email?: string | undefined;
    account?: string | undefined;
    code: string;
    client: BridgeClient;
    remainingMs: () => number;
  },
): Promise<BridgeVerifyOutcome> {
  ownPageOnly(deps, input.client);
  const request = await pending(deps, input.requestId);
  const email = await addressOf(deps, input);
  try {
    const result = await verifySignIn(deps, {
      scope: PLATFORM,
      email,
      code: input.code,
      sourceIp: input.client.ip,
      userAgent: input.client.userAgent,
      remainingMs: input.remainingMs,
    });
    return {
      outcome: 'signed-in',
      cookies: [
        // The platform session cookie (docs/security.md, "Session tokens"): the form came from the
        // service's own origin.
        sessionCookie(deps.config, PLATFORM, result.token),
        // The account joins the browser's recent accounts, first
        // (docs/oauth.md, "Recent accounts").
        await rememberAccount(deps, input.client.cookies, { userId: result.user.id, scope: PLATFORM }),
      ],
      returnTo: serviceUrl(deps.config.ISSUER, `/oauth/authorize?${request.query}`),
    };
  } catch (error) {
    if (!(error instanceof AppError) || error.kind !== 'wrongCode') throw error;
    const attemptsLeft = error.details?.attemptsLeft;
    return {
      outcome: 'wrong-code',
      brand: await brandOf(deps, request),
      clientTarget: formTargetOf(request.redirectUri),
      attemptsLeft: typeof attemptsLeft === 'number' ? attemptsLeft : undefined,
      to: recipientOf(input, email),
    };
  }
}
