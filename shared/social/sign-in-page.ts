/**
 * The application's own social sign-in page (docs/api.md, "Social sign-in page"): a button per
 * provider the application offers and the browser's recent accounts of that application, each
 * with a Forget button. It is
 * the application's page, not the platform's OAuth sign-in bridge (`/oauth/login`), which signs in
 * platform accounts only and never offers an application's providers: an owner-controlled OpenID
 * Connect issuer could otherwise assert any platform address.
 */
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { Brand } from '../oauth/pages/brand.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogRead } from '../rate-limit/rate-limit.ts';
import { serviceUrl } from '../service-url.ts';
import {
  forgetRecentAccount,
  type RecentAccountView,
  scopeAccountsRead,
} from '../sessions/recent-accounts.ts';
import { applicationRead } from '../store/applications.ts';
import { readRecords } from '../store/reads.ts';
import { applicationFromRecord } from '../tenancy/applications.ts';
import type { SocialProviderName } from '../tenancy/social-providers.ts';
import { offeredProviders, returnUrl } from './flow.ts';
import { providerLabel } from './providers.ts';

/** What the start takes and the page passes on, as the start route's query. */
export interface PageQuery {
  returnTo: string | undefined;
  appState: string | undefined;
  /** The application page's PKCE challenge, which every start of this page carries. */
  appChallenge: string;
}

/** `path` with the page's query (only the values asked for). */
function withQuery(path: string, query: PageQuery): string {
  const search = new URLSearchParams();
  if (query.returnTo !== undefined) search.set('return_to', query.returnTo);
  if (query.appState !== undefined) search.set('state', query.appState);
  search.set('code_challenge', query.appChallenge);
  return `${path}?${search}`;
}

export interface SocialPage {
  applicationId: string;
  brand: Brand;
  providers: { name: SocialProviderName; label: string; href: string }[];
  accounts: RecentAccountView[];
  query: PageQuery;
}

/**
 * `GET /auth/social/{applicationId}`: ONE BatchGetItem (the application, the IP's limit log, and
 * the profiles of the browser's recent accounts of this application) and the limit's UpdateItem. `return_to` is checked as the
 * start checks it, so the page never offers a button the start would refuse.
 */
export async function socialPage(
  deps: Deps,
  input: PageQuery & { applicationId: string; ip: string; cookies: readonly string[] },
): Promise<SocialPage> {
  // The browser's recent accounts of this application are read in the page's one BatchGetItem and
  // counted by the page's limit alone: one read and one limit per view.
  const recent = await scopeAccountsRead(deps, input.cookies, input.applicationId);
  const found = await readRecords(deps.db, {
    ...recent.reads,
    application: applicationRead(input.applicationId),
    limitLog: rateLogRead(limits.socialPagePerIp, input.ip),
  });
  await consume(deps, limits.socialPagePerIp, input.ip, found.limitLog);
  if (!found.application) throw fail('notFound', 'This application does not exist');
  const app = applicationFromRecord(found.application);
  returnUrl(app, input.returnTo);
  const query = { returnTo: input.returnTo, appState: input.appState, appChallenge: input.appChallenge };
  return {
    applicationId: app.id,
    brand: { applicationName: app.name, logoUrl: app.logoUrl },
    providers: offeredProviders(app).map((name) => ({
      name,
      label: providerLabel(name),
      href: withQuery(`/auth/social/${encodeURIComponent(app.id)}/${name}`, query),
    })),
    accounts: recent.accounts(found),
    query,
  };
}

/**
 * `POST /auth/social/{applicationId}/forget`: the account taken off the browser's list (only from
 * the service's own page, by the sign-in bridge's Origin rule) and the page again, by a 303 to it
 * on this service (so no redirect target comes from the form but the page's own query, which the
 * page checks again).
 */
export async function forgetOnSocialPage(
  deps: Deps,
  input: PageQuery & {
    applicationId: string;
    account: string;
    ip: string;
    cookies: readonly string[];
    origin: string | undefined;
    fetchSite: string | undefined;
  },
): Promise<{ location: string; cookie: string }> {
  const { cookie } = await forgetRecentAccount(deps, { ...input, userId: input.account });
  const page = withQuery(`/auth/social/${encodeURIComponent(input.applicationId)}`, input);
  return { location: serviceUrl(deps.config.ISSUER, page), cookie };
}
