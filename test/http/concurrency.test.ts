import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, PLATFORM } from '../../shared/store/keys.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { latestCode, mailTo } from '../support/inbox.ts';
import { approvalOf, authorizePath, ownPage, pkce, postForm } from '../support/oauth-authorize.ts';
import { newCode, oauthErrorOf, refreshRequest, tokenRequest } from '../support/oauth-token.ts';
import { bearer, newEmail, signIn, wrongCode } from '../support/sign-in.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

let metadata: ClientMetadataServer;
let app: TestApp;
beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

async function start(email: string, ip = freshIp()) {
  const response = await app.request('POST', '/auth/code/start', { body: { email }, ip });
  expect(response.status).toBe(200);
  return response.body as { deviceCode: string };
}

/** `count` copies of one request, sent at once, each from its own source address. */
const inParallel = (count: number, send: (ip: string) => Promise<TestResponse>) =>
  Promise.all(Array.from({ length: count }, () => send(freshIp())));

const statuses = (responses: TestResponse[]) => responses.map((r) => r.status);
const countOf = (responses: TestResponse[], status: number) =>
  responses.filter((r) => r.status === status).length;

async function scanAll(filter: string, values: Record<string, unknown>) {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await app.deps.db.client.send(
      new ScanCommand({
        TableName: app.deps.db.table,
        FilterExpression: filter,
        ExpressionAttributeValues: values,
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

describe('POST /auth/code/verify under concurrency', () => {
  it('counts exactly five of twenty parallel wrong codes', async () => {
    const email = newEmail();
    await start(email);
    const code = await latestCode(email);
    const wrong = wrongCode(code);

    const answers = await inParallel(20, (ip) =>
      app.request('POST', '/auth/code/verify', { body: { email, code: wrong }, ip }),
    );

    expect(
      answers.every((a) => a.status === 400 || a.status === 429),
      String(statuses(answers)),
    ).toBe(true);
    const counted = answers.filter((a) => a.status === 400);
    expect(counted).toHaveLength(4);
    for (const answer of counted) {
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.attemptsLeft).toBeGreaterThanOrEqual(1);
    }
    expect(counted.map((a) => a.body.error.details.attemptsLeft).sort()).toEqual([1, 2, 3, 4]);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(16);
    for (const answer of refused) expect(answer.body.error.code).toBe('TOO_MANY_ATTEMPTS');

    const { Item } = await app.deps.db.client.send(
      new GetCommand({
        TableName: app.deps.db.table,
        Key: keys.signIn(PLATFORM, email),
        ConsistentRead: true,
      }),
    );
    expect(Item?.attempts).toBe(5);

    const late = await app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() });
    expect(late.status).toBe(429);
    expect(late.body.error.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('issues exactly one session for twenty parallel correct codes', async () => {
    const email = newEmail();
    // An existing account with no session left, so every session listed comes from this race.
    const earlier = await signIn(app, email);
    expect((await app.request('POST', '/auth/sign-out', { headers: bearer(earlier.token) })).status).toBe(
      200,
    );
    await start(email);
    const code = await latestCode(email);

    const answers = await inParallel(20, (ip) =>
      app.request('POST', '/auth/code/verify', { body: { email, code }, ip }),
    );

    expect(countOf(answers, 200), String(statuses(answers))).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.error.code).toEqual(expect.any(String));
    }
    const winner = answers.find((a) => a.status === 200)!;
    const list = await app.request('GET', '/auth/list-sessions', { headers: bearer(winner.body.token) });
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([winner.body.session.id]);
    expect(winner.body.user.id).toBe(earlier.body.user.id);
  });

  it('creates exactly one account for ten parallel first sign-ins of one new address', async () => {
    const email = newEmail();
    await start(email);
    const code = await latestCode(email);

    const answers = await inParallel(10, (ip) =>
      app.request('POST', '/auth/code/verify', { body: { email, code }, ip }),
    );

    expect(countOf(answers, 200), String(statuses(answers))).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    const accounts = await scanAll('pk = :pk AND sk = :sk', {
      ':pk': `ACCOUNT#${PLATFORM}#${email}`,
      ':sk': 'ACCOUNT',
    });
    expect(accounts).toHaveLength(1);
    const profiles = await scanAll('begins_with(pk, :user) AND sk = :sk AND email = :email', {
      ':user': 'USER#',
      ':sk': 'PROFILE',
      ':email': email,
    });
    expect(profiles).toHaveLength(1);
    const winner = answers.find((a) => a.status === 200)!;
    expect(profiles[0]?.id).toBe(winner.body.user.id);
    const list = await app.request('GET', '/auth/list-sessions', { headers: bearer(winner.body.token) });
    expect(list.body.items).toHaveLength(1);
  });
});

describe('POST /auth/code/approve under concurrency', () => {
  it('approves once of ten parallel correct codes', async () => {
    const email = newEmail();
    await start(email);
    const code = await latestCode(email);

    const answers = await inParallel(10, (ip) =>
      app.request('POST', '/auth/code/approve', { body: { email, code }, ip }),
    );

    expect(countOf(answers, 200), String(statuses(answers))).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('POST /auth/code/start under concurrency', () => {
  it('never sends more than three codes to one address from ten parallel starts', async () => {
    const email = newEmail();

    const answers = await inParallel(10, (ip) =>
      app.request('POST', '/auth/code/start', { body: { email }, ip }),
    );

    expect(countOf(answers, 200), String(statuses(answers))).toBe(3);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(7);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      // Refused by the recipient limit, not told to come back for being busy: the three counted
      // starts share this millisecond, so the first leaves the 10-minute window in exactly 600 s.
      expect(answer.body.error.details.reason).toBeUndefined();
      expect(answer.headers['retry-after']).toBe('600');
    }
    const mails = await mailTo(email);
    expect(mails).toHaveLength(3);

    // A start replaces the pending request (docs/security.md, "Sign-in codes"), so exactly one of the three
    // codes works.
    const sent = mails.map((mail) => mail.body.text?.match(/\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/)?.[0]);
    const verifies = [];
    for (const code of sent) {
      verifies.push(await app.request('POST', '/auth/code/verify', { body: { email, code }, ip: freshIp() }));
    }
    expect(countOf(verifies, 200), String(statuses(verifies))).toBe(1);
  });

  it('lets five of twelve parallel starts from one address through', async () => {
    const ip = freshIp();

    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        app.request('POST', '/auth/code/start', { body: { email: newEmail() }, ip }),
      ),
    );

    expect(countOf(answers, 200), String(statuses(answers))).toBe(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(7);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      // The IP limit, not `busy`: the five counted starts share this millisecond (60 s window).
      expect(answer.body.error.details.reason).toBeUndefined();
      expect(answer.headers['retry-after']).toBe('60');
    }
  });
});

describe('POST /auth/code/poll under concurrency', () => {
  it('answers at most one of five parallel polls as pending and slows the rest down', async () => {
    const email = newEmail();
    const { deviceCode } = await start(email);

    const answers = await inParallel(5, (ip) =>
      app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip }),
    );

    expect(
      answers.every((a) => a.status === 428 || a.status === 429),
      String(statuses(answers)),
    ).toBe(true);
    expect(countOf(answers, 428)).toBeLessThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      expect(answer.body.error.details.reason).toBe('slow_down');
    }
  });

  it('issues exactly one session when an approved device code is polled in parallel', async () => {
    const email = newEmail();
    const { deviceCode } = await start(email);
    const approve = await app.request('POST', '/auth/code/approve', {
      body: { email, code: await latestCode(email) },
      ip: freshIp(),
    });
    expect(approve.status).toBe(200);

    const answers = await inParallel(5, (ip) =>
      app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip }),
    );

    expect(countOf(answers, 200), String(statuses(answers))).toBeLessThanOrEqual(1);
    expect(answers.every((a) => a.status < 500)).toBe(true);
    // Whoever lost the race may poll again after the interval: exactly one session in total.
    app.clock.advance(60_000);
    const again = await app.request('POST', '/auth/code/poll', { body: { deviceCode }, ip: freshIp() });
    const winners = [...answers, again].filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    const list = await app.request('GET', '/auth/list-sessions', { headers: bearer(winners[0]!.body.token) });
    expect(list.body.items).toHaveLength(1);
  });
});

describe('POST /auth/refresh under concurrency', () => {
  it('lets exactly one of parallel refreshes of one token win', async () => {
    const { token } = await signIn(app);
    app.clock.advance(1000);

    const answers = await inParallel(8, (ip) =>
      app.request('POST', '/auth/refresh', { headers: bearer(token), ip }),
    );

    expect(countOf(answers, 200), String(statuses(answers))).toBe(1);
    const losers = answers.filter((a) => a.status !== 200);
    expect(losers).toHaveLength(7);
    for (const answer of losers) {
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHORIZED');
    }
    const winner = answers.find((a) => a.status === 200)!;
    expect((await app.request('GET', '/auth/session', { headers: bearer(winner.body.token) })).status).toBe(
      200,
    );
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).status).toBe(401);
  });
});

describe('POST /oauth/token under concurrency', () => {
  it('exchanges one code once of five parallel exchanges, and the replays revoke the grant', async () => {
    const owned = await createOwnedApplication(app);
    const issued = await newCode(app, { userId: owned.owner.userId, applicationId: owned.applicationId });

    const answers = await Promise.all(Array.from({ length: 5 }, () => tokenRequest(app, issued.fields)));

    expect(countOf(answers, 200), String(statuses(answers))).toBe(1);
    const losers = answers.filter((a) => a.status !== 200);
    expect(losers).toHaveLength(4);
    for (const answer of losers) {
      expect(oauthErrorOf(answer)).toEqual({ status: 400, error: 'invalid_grant', cacheControl: 'no-store' });
    }
    // shared/oauth/token.ts: a second exchange of a code ends the grant the first one created.
    const winner = answers.find((a) => a.status === 200)!;
    expect(oauthErrorOf(await refreshRequest(app, winner.body.refresh_token))).toEqual({
      status: 400,
      error: 'invalid_grant',
      cacheControl: 'no-store',
    });
  });
});

describe('POST /oauth/consent under concurrency', () => {
  it('issues one code of five parallel approvals of one pending request', async () => {
    const owned = await createOwnedApplication(app);
    const cookie = `${app.deps.config.SERVICE_NAME}.session_token=${owned.owner.token}`;
    const redirect = 'https://agent.example.com/callback';
    const page = await app.request(
      'GET',
      authorizePath({
        client_id: metadata.serveClient(`/agent-${owned.applicationId}.json`),
        redirect_uri: redirect,
        response_type: 'code',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: `${TEST_ISSUER}/mcp/${owned.applicationId}`,
        state: 'st-race',
      }),
      { headers: { cookie }, ip: freshIp() },
    );
    expect(page.status, page.text).toBe(200);
    const approval = approvalOf(page.text);

    const answers = await Promise.all(
      Array.from({ length: 5 }, () => postForm(app, '/oauth/consent', approval, ownPage({ cookie }))),
    );

    const withCode = answers.filter(
      (a) => a.status === 303 && new URL(String(a.headers.location)).searchParams.get('code'),
    );
    expect(withCode, String(statuses(answers))).toHaveLength(1);
    const location = new URL(String(withCode[0]!.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(redirect);
    for (const answer of answers.filter((a) => a !== withCode[0])) {
      expect(answer.status).toBe(400);
      expect(answer.headers.location).toBeUndefined();
    }
  });
});
