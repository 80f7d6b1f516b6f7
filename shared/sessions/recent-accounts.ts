/**
 * Recent accounts (docs/api.md, "Recent accounts"): after a browser signs in on the service's own pages (the
 * OAuth sign-in bridge; social sign-in later), an HttpOnly cookie on the service host remembers up to five
 * accounts, newest first, so the bridge can offer them as one-click choices.
 *
 * The cookie holds no email address: only `{ userId, scope, lastUsedAt }` entries, signed with an HMAC under
 * the code-hash key (docs/security.md, "The code-hash key"), which readers of the table do not have. A cookie
 * that is malformed, forged or tampered with is an empty list, never an error. docs/security.md
 * ("Recent accounts cookie") says why it is safe to hold.
 */
import * as z from 'zod/mini';
import type { Config } from '../config.ts';
import { sameDigest } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { AppError, fail } from '../errors.ts';
import { userFromRecord } from '../identity/user.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogRead } from '../rate-limit/rate-limit.ts';
import { type ApplicationRecord, applicationRead } from '../store/applications.ts';
import { PLATFORM } from '../store/keys.ts';
import { type Read, readRecords } from '../store/reads.ts';
import { type ProfileRecord, profileRead } from '../store/users.ts';
import {
  hostCookieName,
  MAX_SAME_NAME_COOKIES,
  postedByServicePage,
  readCookies,
  setCookie,
} from './cookies.ts';

/** At most this many accounts per browser. */
const MAX_RECENT_ACCOUNTS = 5;
/**
 * How long an entry lasts after its last sign-in: 90 days. The browser's Max-Age is not enough (a
 * copied cookie can be replayed later), so an older entry is also ignored on read and dropped on
 * the next write.
 */
const RECENT_ACCOUNTS_MAX_AGE = 90 * 24 * 3600;
/** The HMAC's purpose, in place of a sign-in request id: no request id has this form. */
const PURPOSE = 'recent-accounts';
const VERSION = 'v1';

interface RecentAccount {
  userId: string;
  scope: string;
  /** Unix seconds of the last sign-in with this account in this browser. */
  lastUsedAt: number;
}

const Entry = z.tuple([
  z.string().check(z.minLength(1), z.maxLength(100)),
  z.string().check(z.minLength(1), z.maxLength(100)),
  z.int().check(z.nonnegative()),
]);
const Entries = z.array(Entry).check(z.maxLength(MAX_RECENT_ACCOUNTS));

/** A `__Host-` cookie (shared/sessions/cookies.ts): no sibling subdomain can plant or shadow the list. */
export const recentAccountsCookieName = (config: Config): string => hostCookieName(config, 'recent_accounts');

/** The signed cookie value of `accounts`: `v1.<base64url JSON>.<hex HMAC>`. */
async function encode(deps: Deps, accounts: readonly RecentAccount[]): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify(accounts.map((account) => [account.userId, account.scope, account.lastUsedAt])),
  ).toString('base64url');
  const mac = await deps.codeHasher.hash(PURPOSE, `${VERSION}.${payload}`);
  return `${VERSION}.${payload}.${mac}`;
}

/** The accounts of one cookie value still within their 90 days, or none when it is not one this service signed. */
async function decode(deps: Deps, value: string): Promise<RecentAccount[]> {
  const [version, payload, mac, ...rest] = value.split('.');
  if (version !== VERSION || !payload || !mac || rest.length > 0) return [];
  if (!sameDigest(mac, await deps.codeHasher.hash(PURPOSE, `${VERSION}.${payload}`))) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  const entries = Entries.safeParse(parsed);
  if (!entries.success) return [];
  const oldest = Math.floor(deps.clock.now() / 1000) - RECENT_ACCOUNTS_MAX_AGE;
  return entries.data
    .filter(([, , lastUsedAt]) => lastUsedAt >= oldest)
    .map(([userId, scope, lastUsedAt]) => ({ userId, scope, lastUsedAt }));
}

/**
 * The browser's recent accounts from the request's cookies: the first value of the name that this
 * service signed (a browser may send a stale copy too); none when no value is valid.
 */
async function readRecentAccounts(deps: Deps, cookies: readonly string[]): Promise<RecentAccount[]> {
  for (const value of readCookies(cookies, recentAccountsCookieName(deps.config)).slice(
    0,
    MAX_SAME_NAME_COOKIES,
  )) {
    const accounts = await decode(deps, value);
    if (accounts.length > 0) return accounts;
  }
  return [];
}

/** The `Set-Cookie` of `accounts` (an empty list clears the cookie). */
async function recentAccountsCookie(deps: Deps, accounts: readonly RecentAccount[]): Promise<string> {
  const name = recentAccountsCookieName(deps.config);
  if (accounts.length === 0) return setCookie(name, '', 0);
  return setCookie(name, await encode(deps, accounts), RECENT_ACCOUNTS_MAX_AGE);
}

/**
 * The cookie after a successful browser sign-in of `userId` in `scope`: that account first, then
 * the others as they were, without duplicates, at most five.
 */
export async function rememberAccount(
  deps: Deps,
  cookies: readonly string[],
  account: { userId: string; scope: string },
): Promise<string> {
  const previous = await readRecentAccounts(deps, cookies);
  const now: RecentAccount = { ...account, lastUsedAt: Math.floor(deps.clock.now() / 1000) };
  const others = previous.filter((entry) => entry.userId !== account.userId);
  return recentAccountsCookie(deps, [now, ...others].slice(0, MAX_RECENT_ACCOUNTS));
}

/** An address shown without revealing it: the first character of the local part, then the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** One account as the list shows it: no full address. */
export interface RecentAccountView {
  userId: string;
  name: string | null;
  maskedEmail: string;
  image: string | null;
  /** The application the account belongs to; null for a platform account. */
  application: { id: string; name: string } | null;
  lastUsedAt: string;
}

interface Resolved {
  view: RecentAccountView;
  entry: RecentAccount;
  email: string;
}

/**
 * The accounts of the cookie that still exist, each with its profile (ONE BatchGetItem with the
 * per-IP limit's log and the applications), after counting the request against the limit. A user
 * deleted since, or whose scope changed, drops out; `changed` says the cookie should be rewritten.
 */
async function resolve(
  deps: Deps,
  input: { cookies: readonly string[]; ip: string },
  read?: RecentAccount[],
): Promise<{ accounts: Resolved[]; changed: boolean }> {
  const entries = read ?? (await readRecentAccounts(deps, input.cookies));
  const found = await readRecords(deps.db, {
    limitLog: rateLogRead(limits.recentAccountsPerIp, input.ip),
    ...accountReads(entries),
  });
  await consume(deps, limits.recentAccountsPerIp, input.ip, found.limitLog);
  const accounts = resolvedFrom(deps, entries, found);
  return { accounts, changed: accounts.length !== entries.length };
}

/** The reads of the profiles (`user<index>`) and applications (`app<id>`) of some entries. */
type AccountReads = Record<`user${number}`, Read<ProfileRecord>> &
  Record<`app${string}`, Read<ApplicationRecord>>;
/** What those reads found, by the same names. */
type AccountRecords = Partial<
  Record<`user${number}`, ProfileRecord> & Record<`app${string}`, ApplicationRecord>
>;

/** The reads of the profiles and applications of `entries`, named for `resolvedFrom`. */
function accountReads(entries: readonly RecentAccount[]): AccountReads {
  const users: Record<`user${number}`, Read<ProfileRecord>> = {};
  const applications: Record<`app${string}`, Read<ApplicationRecord>> = {};
  for (const [index, entry] of entries.entries()) {
    users[`user${index}`] = profileRead(entry.userId);
    if (entry.scope !== PLATFORM) applications[`app${entry.scope}`] = applicationRead(entry.scope);
  }
  return { ...users, ...applications };
}

/** The entries whose user still exists in its scope (and its application), each with its view. */
function resolvedFrom(deps: Deps, entries: readonly RecentAccount[], found: AccountRecords): Resolved[] {
  const accounts: Resolved[] = [];
  for (const [index, entry] of entries.entries()) {
    const profile = found[`user${index}`];
    if (!profile || profile.scope !== entry.scope) continue;
    const application = entry.scope === PLATFORM ? undefined : found[`app${entry.scope}`];
    if (entry.scope !== PLATFORM && !application) continue;
    const user = userFromRecord(profile, deps.config.ISSUER);
    accounts.push({
      entry,
      email: user.email,
      view: {
        userId: entry.userId,
        name: user.name,
        maskedEmail: maskEmail(user.email),
        image: user.image,
        application: application ? { id: entry.scope, name: application.name } : null,
        lastUsedAt: new Date(entry.lastUsedAt * 1000).toISOString(),
      },
    });
  }
  return accounts;
}

/** `GET /recent-accounts`: the list, and a rewritten cookie when accounts dropped out. */
export async function listRecentAccounts(
  deps: Deps,
  input: { cookies: readonly string[]; ip: string },
): Promise<{ items: RecentAccountView[]; cookie: string | undefined }> {
  const { accounts, changed } = await resolve(deps, input);
  return {
    items: accounts.map((account) => account.view),
    cookie: changed
      ? await recentAccountsCookie(
          deps,
          accounts.map((account) => account.entry),
        )
      : undefined,
  };
}

/**
 * The list may change only from the service's own pages, by the sign-in bridge's rule (`Origin`
 * is ISSUER's, or absent or `null` with `Sec-Fetch-Site: same-origin`): another site could
 * otherwise empty a browser's list.
 */
function ownPageOnly(
  deps: Deps,
  client: { origin: string | undefined; fetchSite: string | undefined },
): void {
  if (!postedByServicePage(deps.config, client)) {
    throw fail('forbidden', "Recent accounts may only be changed from this service's own pages");
  }
}

interface ChangeInput {
  cookies: readonly string[];
  ip: string;
  origin: string | undefined;
  fetchSite: string | undefined;
}

/**
 * `DELETE /recent-accounts/{userId}`: the list without that account (an id not in it changes
 * nothing), and its cookie (cleared when none is left). Accounts deleted since drop out too.
 */
export async function forgetRecentAccount(
  deps: Deps,
  input: ChangeInput & { userId: string },
): Promise<{ items: RecentAccountView[]; cookie: string }> {
  ownPageOnly(deps, input);
  const { accounts } = await resolve(deps, input);
  const kept = accounts.filter((account) => account.entry.userId !== input.userId);
  return {
    items: kept.map((account) => account.view),
    cookie: await recentAccountsCookie(
      deps,
      kept.map((account) => account.entry),
    ),
  };
}

/** `DELETE /recent-accounts`: the cookie cleared; one read and one write of the IP's limit. */
export async function forgetAllRecentAccounts(deps: Deps, input: ChangeInput): Promise<{ cookie: string }> {
  ownPageOnly(deps, input);
  const found = await readRecords(deps.db, { limitLog: rateLogRead(limits.recentAccountsPerIp, input.ip) });
  await consume(deps, limits.recentAccountsPerIp, input.ip, found.limitLog);
  return { cookie: await recentAccountsCookie(deps, []) };
}

/** A platform account the sign-in bridge offers as a one-click choice: no full address. */
export interface BridgeChoice {
  userId: string;
  name: string | null;
  maskedEmail: string;
}

/**
 * A page's read of the browser's accounts of `scope` inside its own BatchGetItem, under its own
 * per-IP limit (one read and one limit per page view): `reads` to add to that read (none without a
 * valid cookie of that scope), and `accounts` to take the views from the records it found.
 */
export async function scopeAccountsRead(
  deps: Deps,
  cookies: readonly string[],
  scope: string,
): Promise<{
  reads: AccountReads;
  accounts(found: AccountRecords): RecentAccountView[];
}> {
  const entries = (await readRecentAccounts(deps, cookies)).filter((entry) => entry.scope === scope);
  return {
    reads: accountReads(entries),
    accounts: (found) => resolvedFrom(deps, entries, found).map((account) => account.view),
  };
}

/** The browser's platform accounts for the sign-in bridge's page (`GET /oauth/login`), as `scopeChoices`. */
export async function bridgeChoices(
  deps: Deps,
  input: { cookies: readonly string[]; ip: string },
): Promise<BridgeChoice[]> {
  const views = await scopeChoices(deps, input, PLATFORM);
  return views.map((view) => ({ userId: view.userId, name: view.name, maskedEmail: view.maskedEmail }));
}

/**
 * The address of the platform account `userId` of the browser's list, for the bridge's one-click
 * start: resolved on the server, so the page never holds it. An id that is not in the browser's
 * signed list (or whose user is gone) is refused.
 */
export async function recentPlatformAddress(
  deps: Deps,
  input: { cookies: readonly string[]; ip: string; userId: string },
): Promise<string> {
  const { accounts } = await resolve(deps, input);
  const account = accounts.find((a) => a.entry.userId === input.userId && a.entry.scope === PLATFORM);
  if (!account) throw fail('invalidRequest', "This account is not among this browser's recent accounts");
  return account.email;
}

/**
 * The browser's accounts of one scope, for a page that offers them (the bridge: the platform; an
 * application's social sign-in page: that application): none without a valid cookie of that scope
 * (then nothing is read), and none when the IP is over its limit (the page still shows its forms).
 */
async function scopeChoices(
  deps: Deps,
  input: { cookies: readonly string[]; ip: string },
  scope: string,
): Promise<RecentAccountView[]> {
  const entries = (await readRecentAccounts(deps, input.cookies)).filter((entry) => entry.scope === scope);
  if (entries.length === 0) return [];
  try {
    const { accounts } = await resolve(deps, input, entries);
    return accounts.map(({ view }) => view);
  } catch (error) {
    if (error instanceof AppError && error.kind === 'rateLimited') return [];
    throw error;
  }
}
