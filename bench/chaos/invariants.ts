/**
 * The chaos harness's invariants (docs/reliability.md, "What a client can rely on"), checked at the
 * end of a run against the table itself (one Scan: the harness may) and the ledger of what the
 * clients were told. Each check is named; a broken one is a Violation with the answers behind it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '../../shared/crypto/hash.ts';
import { AppError, type ErrorName } from '../../shared/errors.ts';
import { type RouteId, routes } from '../../shared/routes.ts';
import type { Attempt } from './http.ts';
import type { Ledger, Violation } from './ledger.ts';

// biome-ignore lint/suspicious/noExplicitAny: items of every family, read attribute by attribute.
type Item = Record<string, any>;

export interface TableView {
  items: Item[];
  byKey: Map<string, Item>;
  /** Items by partition key. */
  byPk: Map<string, Item[]>;
}

/** Every item of the table, read with a client of its own (no faults). */
export async function scanTable(endpoint: string, table: string): Promise<TableView> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey;
  } while (start);
  client.destroy();
  const byKey = new Map(items.map((item) => [`${item.pk}|${item.sk}`, item]));
  const byPk = new Map<string, Item[]>();
  for (const item of items) byPk.set(item.pk, [...(byPk.get(item.pk) ?? []), item]);
  return { items, byKey, byPk };
}

/** The statuses and codes a route's contract lists: its responses, its errors, and 500. */
function allowedAnswers(route: RouteId): { statuses: Set<number>; errors: Set<string> } {
  const { contract } = routes[route];
  const statuses = new Set(Object.keys(contract.responses).map(Number));
  const errors = new Set<string>(['500 INTERNAL_ERROR']);
  for (const name of contract.errors as readonly ErrorName[]) {
    const error = new AppError(name, '');
    errors.add(`${error.status} ${error.code}`);
  }
  statuses.add(500);
  for (const entry of errors) statuses.add(Number(entry.split(' ')[0]));
  return { statuses, errors };
}

/** An invariant, with how many things it checked. */
export interface Check {
  name: string;
  checked: number;
  violations: Violation[];
}

class Checks {
  readonly all = new Map<string, Check>();
  check(name: string, holds: boolean, message: () => string, requestIds: string[] = []): void {
    let check = this.all.get(name);
    if (!check) {
      check = { name, checked: 0, violations: [] };
      this.all.set(name, check);
    }
    check.checked++;
    if (!holds) check.violations.push({ invariant: name, message: message(), requestIds });
  }
}

/** Every answer is one its route's contract lists; a 5xx is a 500 INTERNAL_ERROR or a 503 with Retry-After. */
export function checkAnswers(attempts: readonly Attempt[], checks = new Checks()): Checks {
  const allowed = new Map<RouteId, ReturnType<typeof allowedAnswers>>();
  for (const attempt of attempts) {
    // An answer the harness dropped on its way back was the service's, not this status.
    if (attempt.lost) continue;
    let route = allowed.get(attempt.route);
    if (!route) {
      route = allowedAnswers(attempt.route);
      allowed.set(attempt.route, route);
    }
    const ids = attempt.requestId ? [attempt.requestId] : [];
    const what = `${attempt.route} answered ${attempt.status} ${attempt.code ?? ''}`.trim();
    checks.check(
      'an answer is in its route contract',
      attempt.status !== 0 && route.statuses.has(attempt.status),
      () => what,
      ids,
    );
    if (attempt.status >= 400 && attempt.code !== undefined && routes[attempt.route].errorStyle === 'app') {
      const known = route.errors.has(`${attempt.status} ${attempt.code}`);
      checks.check('an error is in its route contract', known, () => what, ids);
    }
    if (attempt.status >= 500) {
      // In the route's error style (shared/http/respond.ts): the envelope's code, the JSON-RPC
      // error's `data.code` (MCP), `server_error` (OAuth, RFC 6749 §5.2), or an HTML page's status.
      const style = routes[attempt.route].errorStyle;
      const internal =
        style === 'html' ||
        (style === 'oauth' ? attempt.code === 'server_error' : attempt.code === 'INTERNAL_ERROR');
      const unavailable =
        attempt.retryAfter !== undefined &&
        (style === 'html' ||
          (style === 'oauth'
            ? attempt.code === 'temporarily_unavailable' || attempt.code === 'server_error'
            : attempt.code === 'SERVICE_UNAVAILABLE'));
      const fine = (attempt.status === 500 && internal) || (attempt.status === 503 && unavailable);
      checks.check('a 5xx is 500 INTERNAL_ERROR or 503 with Retry-After', fine, () => what, ids);
    }
  }
  return checks;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The table against itself and against the ledger. */
export function checkTable(view: TableView, ledger: Ledger, checks: Checks): void {
  const users = view.items.filter((item) => item.pk.startsWith('USER#') && item.sk === 'PROFILE');
  const accounts = view.items.filter((item) => item.pk.startsWith('ACCOUNT#') && item.sk === 'ACCOUNT');
  const sessions = view.items.filter((item) => item.pk.startsWith('USER#') && item.sk.startsWith('SESSION#'));
  const organizations = view.items.filter((item) => item.pk.startsWith('ORG#') && item.sk === 'ORG');
  const applications = view.items.filter((item) => item.pk.startsWith('APP#') && item.sk === 'APP');
  const memberships = view.items.filter(
    (item) => item.pk.startsWith('ORG#') && item.sk.startsWith('MEMBER#'),
  );
  const userIds = new Set(users.map((user) => user.id as string));

  // One account per address per scope, and the profile's two items agree.
  const perAddress = new Map<string, Item[]>();
  for (const user of users) {
    const key = `${user.scope}#${user.email}`;
    perAddress.set(key, [...(perAddress.get(key) ?? []), user]);
  }
  for (const [address, found] of perAddress) {
    checks.check(
      'one account per address per scope',
      found.length === 1,
      () => `${address}: ${found.length} users`,
    );
  }
  for (const user of users) {
    const account = view.byKey.get(`ACCOUNT#${user.scope}#${user.email}|ACCOUNT`);
    checks.check(
      'a user has its account item',
      account?.userId === user.id,
      () => `user ${user.id} (${user.email}) has account ${account?.userId}`,
    );
    if (!account) continue;
    checks.check(
      'the profile copies agree',
      (account.name ?? null) === (user.name ?? null) &&
        (account.disabledAt === undefined) === (user.disabledAt === undefined),
      () =>
        `user ${user.id}: name ${user.name} / ${account.name}, disabledAt ${user.disabledAt} / ${account.disabledAt}`,
    );
  }
  for (const account of accounts) {
    checks.check(
      'an account has its user item',
      userIds.has(account.userId),
      () => `account ${account.pk} names missing user ${account.userId}`,
    );
  }

  // No session without its user; no orphan membership of a deleted user.
  for (const session of sessions) {
    checks.check(
      'no session without its user',
      userIds.has(session.userId),
      () => `session ${session.sk} of missing user ${session.userId}`,
    );
  }
  for (const membership of memberships) {
    checks.check(
      'no membership without its user',
      userIds.has(membership.userId),
      () => `${membership.pk} ${membership.sk} of missing user`,
    );
  }

  // Every counter equals what it counts.
  for (const org of organizations) {
    const members = view.byPk.get(org.pk)?.filter((item) => item.sk.startsWith('MEMBER#')) ?? [];
    const owners = members.filter((member) => member.role === 'owner').length;
    checks.check(
      'organization memberCount = its members',
      (org.memberCount ?? 1) === members.length,
      () => `${org.pk}: memberCount ${org.memberCount}, ${members.length} members`,
    );
    checks.check(
      'organization ownerCount = its owners',
      (org.ownerCount ?? 1) === owners,
      () => `${org.pk}: ownerCount ${org.ownerCount}, ${owners} owners`,
    );
    if (org.kind === 'platform') {
      const apps = applications.filter((app) => app.organizationId === org.id).length;
      checks.check(
        'organization applicationCount = its applications',
        (org.applicationCount ?? 0) === apps,
        () => `${org.pk}: applicationCount ${org.applicationCount}, ${apps} applications`,
      );
      // docs/api.md, Plans: the free plan holds 3 applications, even under parallel creates.
      checks.check(
        'an organization holds no more applications than its plan',
        (org.plan ?? 'free') !== 'free' || apps <= 3,
        () => `${org.pk}: ${apps} applications on the free plan`,
      );
    }
  }
  for (const app of applications) {
    const entries = view.byPk.get(app.pk)?.filter((item) => item.sk.startsWith('KEY#')) ?? [];
    const active = entries.filter((entry) => entry.revokedAt === undefined).length;
    checks.check(
      'application keyCount = its active keys',
      (app.keyCount ?? 0) === active,
      () => `${app.pk}: keyCount ${app.keyCount}, ${active} active keys`,
    );
    checks.check(
      'an application holds at most 20 active keys',
      active <= 20,
      () => `${app.pk}: ${active} active keys`,
    );
    for (const entry of entries) {
      const key = view.byKey.get(`APIKEY#${entry.keyHash}|APIKEY`);
      checks.check(
        'a key and its listing agree',
        key !== undefined && (key.revokedAt === undefined) === (entry.revokedAt === undefined),
        () => `key ${entry.id}: listing revokedAt ${entry.revokedAt}, key ${key?.revokedAt ?? '(missing)'}`,
      );
    }
  }

  // An impersonation runs exactly while its session and its listing are there (docs/api.md, Impersonation).
  const now = nowSeconds();
  const running = new Set<string>();
  for (const record of view.items.filter((item) => item.pk.startsWith('IMP#') && item.sk === 'IMP')) {
    const session = view.byKey.get(`USER#${record.userId}|SESSION#${record.sessionId}`);
    const listing = record.organizationId
      ? view.byKey.get(`ORG#${record.organizationId}|IMP#${record.actorId}#${record.lapsesAt}#${record.id}`)
      : undefined;
    const lapsed = Date.parse(record.lapsesAt) / 1000 <= now;
    if (record.endedAt === undefined && !lapsed) {
      running.add(record.id);
      checks.check(
        'a running impersonation has its session',
        session?.jti === record.jti,
        () => `impersonation ${record.id}: session ${session ? `jti ${session.jti}` : 'missing'}`,
      );
      checks.check(
        'a running impersonation is listed',
        listing !== undefined || !record.organizationId,
        () => `impersonation ${record.id} not listed in ${record.organizationId}`,
      );
    }
    // An ended one stays listed until its entry lapses: the readers skip records with endedAt.
    if (record.endedAt !== undefined) {
      checks.check(
        'an ended impersonation has no session',
        session === undefined,
        () => `impersonation ${record.id} ended at ${record.endedAt}, session still stored`,
      );
    }
    const told = ledger.impersonations.get(record.id);
    if (told?.state === 'ended') {
      checks.check(
        'a told ended impersonation is ended',
        record.endedAt !== undefined,
        () => `impersonation ${record.id} told ended, endedAt missing`,
        told.requestIds,
      );
    }
  }
  for (const session of sessions.filter((item) => item.impersonation !== undefined)) {
    checks.check(
      'an impersonated session has its running impersonation',
      running.has(session.impersonation.id),
      () => `session ${session.sk} of impersonation ${session.impersonation.id}, which is not running`,
    );
  }

  // Success means the write is there (beliefs the last answers made certain).
  for (const session of ledger.sessions.values()) {
    const stored = view.byKey.get(`USER#${session.userId}|SESSION#${session.id}`);
    if (session.state === 'live') {
      const live = stored !== undefined && (stored.expiresAt as number) > nowSeconds();
      checks.check(
        'a told live session is there',
        live,
        () => `session ${session.id} of ${session.userId} missing`,
        session.requestIds,
      );
      if (live && !session.jtiUncertain) {
        checks.check(
          'a session holds its last told token',
          stored.jti === session.jti,
          () => `session ${session.id}: jti ${stored.jti}, told ${session.jti}`,
          session.requestIds,
        );
      }
    } else if (session.state === 'ended') {
      checks.check(
        'a told ended session is gone',
        stored === undefined,
        () => `session ${session.id} of ${session.userId} still stored`,
        session.requestIds,
      );
    }
  }
  for (const user of ledger.users.values()) {
    const stored = view.byKey.get(`USER#${user.id}|PROFILE`);
    if (user.state === 'deleted') {
      checks.check(
        'a told deleted user is gone',
        stored === undefined,
        () => `user ${user.id} still stored`,
        user.requestIds,
      );
      const left = (view.byPk.get(`USER#${user.id}`) ?? []).length;
      checks.check(
        'no orphans of a deleted user',
        left === 0,
        () => `${left} items left under USER#${user.id}`,
        user.requestIds,
      );
      continue;
    }
    if (user.state !== 'exists') continue;
    checks.check(
      'a told user is there',
      stored !== undefined,
      () => `user ${user.id} missing`,
      user.requestIds,
    );
    if (!stored) continue;
    if (user.disabled !== 'unknown') {
      checks.check(
        'a user is disabled as told',
        (stored.disabledAt !== undefined) === user.disabled,
        () => `user ${user.id}: disabledAt ${stored.disabledAt}, told disabled ${user.disabled}`,
        user.requestIds,
      );
    }
    checks.check(
      'a user holds its last told name',
      user.names.has(stored.name ?? null),
      () => `user ${user.id}: name ${stored.name}, told ${[...user.names].join(' | ')}`,
      user.requestIds,
    );
  }
  for (const app of ledger.applications.values()) {
    const stored = view.byKey.get(`APP#${app.id}|APP`);
    if (app.state === 'deleted')
      checks.check(
        'a told deleted application is gone',
        stored === undefined,
        () => `application ${app.id} still stored`,
      );
    if (app.state === 'exists') {
      checks.check(
        'a told application is there',
        stored !== undefined,
        () => `application ${app.id} missing`,
      );
      if (stored && app.names.size > 0)
        checks.check(
          'an application holds its last told name',
          app.names.has(stored.name),
          () => `application ${app.id}: ${stored.name}`,
        );
    }
  }
  for (const key of ledger.keys.values()) {
    const entry = view.byKey.get(`APP#${key.applicationId}|KEY#${key.id}`);
    if (key.state === 'unknown' || !view.byKey.has(`APP#${key.applicationId}|APP`)) continue;
    checks.check('a told key is there', entry !== undefined, () => `key ${key.id} missing`);
    if (entry)
      checks.check(
        'a key is revoked as told',
        (entry.revokedAt !== undefined) === (key.state === 'revoked'),
        () => `key ${key.id}: revokedAt ${entry.revokedAt}, told ${key.state}`,
      );
  }
  for (const member of ledger.members.values()) {
    if (member.role === 'unknown') continue;
    const stored = view.byKey.get(`ORG#${member.organizationId}|MEMBER#${member.userId}`);
    checks.check(
      'a membership is as told',
      (stored?.role ?? 'none') === member.role,
      () =>
        `member ${member.userId} of ${member.organizationId}: ${stored?.role ?? 'none'}, told ${member.role}`,
    );
  }
  // An ambiguous creation is there at most once.
  const namesStored = new Map<string, number>();
  for (const item of [...applications, ...organizations])
    namesStored.set(item.name, (namesStored.get(item.name) ?? 0) + 1);
  for (const [name, created] of ledger.createdNames) {
    const count = namesStored.get(name) ?? 0;
    checks.check(
      'a creation is there at most once',
      count <= 1,
      () => `${created.kind} "${name}" stored ${count} times`,
    );
  }
  checkOAuth(view, ledger, checks);
  checkRevokedSessionsAudit(view, ledger, checks);

  // A sign-in attempt made one session at most (each attempt has a user agent of its own).
  const perAgent = new Map<string, number>();
  for (const session of sessions) perAgent.set(session.userAgent, (perAgent.get(session.userAgent) ?? 0) + 1);
  for (const [agent, attempt] of ledger.attemptAgents) {
    const count = perAgent.get(agent) ?? 0;
    checks.check(
      'a sign-in makes one session at most',
      count <= 1,
      () => `${attempt.email}: ${count} sessions from one attempt (${agent})`,
    );
  }
}

/**
 * OAuth (docs/oauth.md): each grant as told (live, or revoked), one live refresh token per grant at
 * most (every rotation of a token names one successor, and marks the token rotated in the same
 * transaction), and a code told redeemed is spent.
 */
function checkOAuth(view: TableView, ledger: Ledger, checks: Checks): void {
  for (const grant of ledger.grants.values()) {
    const stored = view.byKey.get(`USER#${grant.userId}|GRANT#${grant.id}`);
    if (grant.state === 'live')
      checks.check(
        'a told live grant is live',
        stored !== undefined && stored.revokedAt === undefined,
        () => `grant ${grant.id}: ${stored ? `revoked at ${stored.revokedAt}` : 'missing'}`,
        grant.requestIds,
      );
    else if (grant.state === 'revoked')
      checks.check(
        'a told revoked grant is revoked',
        stored?.revokedAt !== undefined,
        () => `grant ${grant.id}: ${stored ? 'not revoked' : 'missing'}`,
        grant.requestIds,
      );
  }
  const now = nowSeconds();
  const liveTokens = new Map<string, number>();
  for (const item of view.items) {
    if (!item.pk.startsWith('REFRESH#') || item.rotatedAt !== undefined || item.expiresAt <= now) continue;
    liveTokens.set(item.grantId, (liveTokens.get(item.grantId) ?? 0) + 1);
  }
  for (const grant of view.items.filter(
    (item) => item.pk.startsWith('USER#') && item.sk.startsWith('GRANT#'),
  )) {
    const live = liveTokens.get(grant.grantId) ?? 0;
    checks.check(
      'a grant holds one live refresh token at most',
      live <= 1,
      () => `grant ${grant.grantId}: ${live} refresh tokens neither rotated nor expired`,
      ledger.grants.get(grant.grantId)?.requestIds ?? [],
    );
  }
  for (const [code, redeemed] of ledger.redemptions) {
    const stored = view.byKey.get(`OAUTHCODE#${sha256Hex(code)}|CODE`);
    checks.check(
      'a redeemed code is spent',
      stored?.usedAt !== undefined,
      () => `a code told redeemed is ${stored ? 'unspent' : 'missing'}`,
      redeemed.requestIds,
    );
  }
}

/**
 * A revocation of a user's sessions told done with sessions ended (the management route's or the
 * MCP tool's) has its one entry in the application's trail: appended after the sessions ended and
 * before the answer (docs/api.md, Audit trail).
 */
function checkRevokedSessionsAudit(view: TableView, ledger: Ledger, checks: Checks): void {
  for (const [agent, told] of ledger.sessionsRevoked) {
    const entries = (view.byPk.get(`AUDIT#${told.applicationId}`) ?? []).filter(
      (entry) =>
        entry.action === 'user.sessionsRevoked' &&
        entry.targetId === told.userId &&
        (entry.userAgent === agent || String(entry.userAgent ?? '').startsWith(`${agent} `)),
    );
    checks.check(
      'a told revocation of sessions is in the audit trail once',
      entries.length === 1,
      () => `revocation of ${told.userId}'s sessions (${agent}): ${entries.length} entries`,
      told.requestIds,
    );
  }
}

/** The statistics of each application against the table and what the clients were told. */
export function checkStatistics(
  view: TableView,
  ledger: Ledger,
  statistics: Map<
    string,
    { totals: { users: number; newUsers: number; signIns: number; activeSessions: number } }
  >,
  checks: Checks,
): void {
  const now = nowSeconds();
  for (const [applicationId, answer] of statistics) {
    const users = view.items.filter((item) => item.sk === 'PROFILE' && item.scope === applicationId);
    const deleted = [...ledger.users.values()].filter(
      (user) =>
        user.scope === applicationId && user.state !== 'exists' && !view.byKey.has(`USER#${user.id}|PROFILE`),
    ).length;
    const sessions = view.items.filter(
      (item) =>
        item.sk.startsWith('SESSION#') &&
        item.scope === applicationId &&
        item.countedIn !== undefined &&
        item.expiresAt > now,
    );
    const counts = ledger.signIns.get(applicationId) ?? { told: 0, ambiguous: 0 };
    const { totals } = answer;
    checks.check(
      'statistics users = the users stored',
      totals.users === users.length,
      () => `${applicationId}: users ${totals.users}, stored ${users.length}`,
    );
    checks.check(
      'statistics newUsers = users created',
      totals.newUsers === users.length + deleted,
      () => `${applicationId}: newUsers ${totals.newUsers}, created ${users.length + deleted}`,
    );
    checks.check(
      'statistics signIns = sign-ins told (and ambiguous ones at most)',
      totals.signIns >= counts.told && totals.signIns <= counts.told + counts.ambiguous,
      () =>
        `${applicationId}: signIns ${totals.signIns}, told ${counts.told} (+${counts.ambiguous} ambiguous)`,
    );
    checks.check(
      'statistics activeSessions = live sessions stored',
      totals.activeSessions === sessions.length,
      () => `${applicationId}: activeSessions ${totals.activeSessions}, stored ${sessions.length}`,
    );
  }
}

export { Checks };
