import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/crypto/hash.ts';
import { normaliseCode } from '../../shared/sign-in/code.ts';
import { PLATFORM_ORIGIN, startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';
import { freshIp, type RequestOptions, type TestResponse } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import {
  approvalOf,
  authorizePath,
  bridgeRequestOf,
  cookieFrom,
  ownPage,
  pkce,
} from '../support/oauth-authorize.ts';
import { bearer, newEmail, wrongCode } from '../support/sign-in.ts';
import { createOwnedApplication, createTestApplication } from '../support/tenancy.ts';

/** Who made a request: a user of these flows, or nobody in particular. */
type Who = 'ada' | 'bob' | 'bot' | 'cat' | 'anyone';

interface Recorded {
  who: Who;
  route: string;
  response: TestResponse;
}

let metadata: ClientMetadataServer;
let app: TestApp;
const recorded: Recorded[] = [];
const codes = new Set<string>();
const deviceCodes = new Map<string, Who>();
const tokens = new Map<string, Who>();
const apiKeys = new Set<string>();
const PENDING_BOT = newEmail('bots.test');
/** The OAuth authorization's secrets: its code, access and refresh tokens, consent CSRF token. */
const oauth = {
  code: '',
  accessTokens: [] as string[],
  refreshTokens: [] as string[],
  csrf: '',
  session: '',
};
const oauthSecrets = () => [
  oauth.code,
  ...oauth.accessTokens,
  ...oauth.refreshTokens,
  oauth.csrf,
  oauth.session,
];

async function call(who: Who, method: string, path: string, options: RequestOptions = {}) {
  const response = await app.request(method, path, { ip: freshIp(), ...options });
  recorded.push({ who, route: `${method} ${path}`, response });
  for (const value of [response.body?.token, response.headers['set-auth-token']]) {
    if (typeof value === 'string' && value) tokens.set(value, who);
  }
  if (typeof response.body?.deviceCode === 'string') deviceCodes.set(response.body.deviceCode, who);
  return response;
}

async function emailedCode(email: string): Promise<string> {
  const code = await latestCode(email);
  codes.add(code);
  return code;
}

/** Every form a code may take in text: as shown, as typed, either case. */
const codeForms = (code: string) => {
  const bare = normaliseCode(code);
  return [code, bare, code.toLowerCase(), bare.toLowerCase()];
};

beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
  const acme = await createTestApplication(app, { authentication: { syntheticEmailDomain: 'bots.test' } });
  apiKeys.add(acme.publicKey).add(acme.secretKey);
  const ada = newEmail();
  const bob = newEmail();
  const bot = `bot-${Date.now()}@bots.test`;

  // Ada: platform sign-in in a browser on the platform origin, with a wrong code first.
  await call('ada', 'POST', '/auth/code/start', { body: { email: ada, name: 'Ada' } });
  const adaCode = await emailedCode(ada);
  await call('ada', 'POST', '/auth/code/verify', { body: { email: ada, code: wrongCode(adaCode) } });
  const adaVerify = await call('ada', 'POST', '/auth/code/verify', {
    body: { email: ada, code: normaliseCode(adaCode).toLowerCase() },
    headers: { origin: PLATFORM_ORIGIN },
  });
  const adaToken = adaVerify.body.token as string;

  // Bob: the headless path (start, poll, approve wrong then right, poll).
  const bobStart = await call('bob', 'POST', '/auth/code/start', { body: { email: bob } });
  const bobDevice = bobStart.body.deviceCode as string;
  await call('bob', 'POST', '/auth/code/poll', { body: { deviceCode: bobDevice } });
  const bobCode = await emailedCode(bob);
  await call('bob', 'POST', '/auth/code/approve', { body: { email: bob, code: wrongCode(bobCode) } });
  await call('bob', 'POST', '/auth/code/approve', { body: { email: bob, code: bobCode } });
  await call('bob', 'POST', '/auth/code/poll', { body: { deviceCode: bobDevice } });
  // The early poll above doubled the interval to 10 s (`slow_down`: docs/api.md, Endpoints).
  app.clock.advance(10_000);
  const bobPoll = await call('bob', 'POST', '/auth/code/poll', { body: { deviceCode: bobDevice } });
  const bobToken = bobPoll.body.token as string;
  await call('bob', 'POST', '/auth/code/poll', { body: { deviceCode: bobDevice } });

  // A test bot of an application: peek reads its code with the secret key.
  await call('bot', 'POST', '/auth/code/start', {
    body: { email: bot },
    headers: { 'x-api-key': acme.publicKey },
  });
  // A test address is never mailed (it would bounce): its code is known only through peek.
  const botPeek = await call('bot', 'POST', '/auth/code/peek', {
    body: { email: bot },
    headers: { 'x-api-key': acme.secretKey },
  });
  const botCode = botPeek.body.code as string;
  codes.add(botCode);
  await call('bot', 'POST', '/auth/code/peek', {
    body: { email: bot },
    headers: { 'x-api-key': acme.publicKey },
  });
  const botVerify = await call('bot', 'POST', '/auth/code/verify', {
    body: { email: bot, code: botCode },
    headers: { 'x-api-key': acme.publicKey },
  });
  const botToken = botVerify.body.token as string;
  await call('bot', 'GET', '/auth/session', { headers: bearer(botToken, { 'x-api-key': acme.secretKey }) });

  // Ada's account calls, including ones that mix in Bob's credentials.
  await call('ada', 'GET', '/auth/session', { headers: bearer(adaToken) });
  await call('ada', 'GET', '/auth/session', {
    headers: { ...bearer(adaToken), cookie: `doorcode.session_token=${bobToken}` },
  });
  await call('ada', 'GET', '/auth/session', { headers: { cookie: `doorcode.session_token=${adaToken}` } });
  await call('ada', 'POST', '/auth/update-user', { body: { name: 'Ada L.' }, headers: bearer(adaToken) });
  await call('ada', 'POST', '/auth/update-user', { body: { email: bob }, headers: bearer(adaToken) });
  await call('ada', 'GET', '/auth/list-sessions', { headers: bearer(adaToken) });
  app.clock.advance(1000);
  const adaRefresh = await call('ada', 'POST', '/auth/refresh', { headers: bearer(adaToken) });
  const adaToken2 = adaRefresh.body.token as string;
  await call('ada', 'POST', '/auth/refresh', { headers: bearer(adaToken) });
  await call('ada', 'POST', '/auth/revoke-session-by-id', {
    body: { id: bobPoll.body.session.id },
    headers: bearer(adaToken2),
  });
  await call('bob', 'GET', '/auth/session', { headers: bearer(bobToken) });
  await call('ada', 'POST', '/auth/revoke-other-sessions', { headers: bearer(adaToken2) });

  // Failing requests carrying secrets.
  await call('anyone', 'GET', '/auth/session', { headers: bearer(`${adaToken2}x`) });
  await call('anyone', 'GET', '/auth/session', { headers: { authorization: `Basic ${adaToken2}` } });
  await call('anyone', 'GET', '/auth/session', {
    headers: bearer(bobToken, { 'x-api-key': acme.publicKey }),
  });
  await call('anyone', 'GET', '/auth/session', { headers: { 'x-api-key': `${acme.secretKey}x` } });
  await call('anyone', 'POST', '/auth/code/start', { body: { email: 'not-an-email' } });
  await call('anyone', 'POST', '/auth/code/verify', {
    raw: `{"email":"${ada}","code":"${adaCode}"`,
    headers: { 'content-type': 'application/json' },
  });
  await call('anyone', 'POST', '/auth/code/verify', { body: { email: ada, code: adaCode } });
  await call('anyone', 'POST', '/auth/code/verify', { body: { email: ada, code: `${adaCode}!` } });
  await call('anyone', 'POST', '/auth/code/poll', { body: { deviceCode: bobDevice.toUpperCase() } });
  await call('anyone', 'POST', '/auth/code/poll', { body: { deviceCode: bobDevice } });
  await call('anyone', 'POST', '/auth/code/peek', {
    body: { email: ada },
    headers: { 'x-api-key': acme.secretKey },
  });

  // Too many wrong codes, then an expired code and an expired device code.
  const eve = newEmail();
  const eveStart = await call('anyone', 'POST', '/auth/code/start', { body: { email: eve } });
  const eveCode = await emailedCode(eve);
  for (let i = 0; i < 6; i++) {
    await call('anyone', 'POST', '/auth/code/verify', { body: { email: eve, code: wrongCode(eveCode) } });
  }
  await call('anyone', 'POST', '/auth/code/verify', { body: { email: eve, code: eveCode } });
  await call('anyone', 'POST', '/auth/code/poll', { body: { deviceCode: eveStart.body.deviceCode } });
  const late = newEmail();
  const lateStart = await call('anyone', 'POST', '/auth/code/start', { body: { email: late } });
  const lateCode = await emailedCode(late);
  app.clock.advance(11 * 60 * 1000);
  await call('anyone', 'POST', '/auth/code/verify', { body: { email: late, code: lateCode } });
  await call('anyone', 'POST', '/auth/code/approve', { body: { email: late, code: lateCode } });
  await call('anyone', 'POST', '/auth/code/poll', { body: { deviceCode: lateStart.body.deviceCode } });

  await call('ada', 'POST', '/auth/sign-out', { headers: bearer(adaToken2) });
  await call('ada', 'POST', '/auth/sign-out', { headers: bearer(adaToken2) });
  await call('ada', 'GET', '/auth/list-sessions', { headers: bearer(adaToken2) });

  // Cat: an agent's OAuth authorization (docs/oauth.md): the sign-in bridge, the consent, the code
  // exchanged, the refresh token rotated.
  const cat = await createOwnedApplication(app, 'Cat Notes');
  const clientId = metadata.serveClient('/no-leaks-agent.json');
  const { verifier, challenge } = pkce();
  const redirectUri = 'https://agent.example.com/callback';
  const resource = `${TEST_ISSUER}/mcp/${cat.applicationId}`;
  const authorization = authorizePath({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
    state: 'no-leaks',
  });
  const requestId = bridgeRequestOf(await call('cat', 'GET', authorization));
  const form = (fields: Record<string, string>, cookie?: string): RequestOptions => ({
    raw: new URLSearchParams(fields).toString(),
    headers: ownPage(cookie ? { cookie } : {}),
  });
  await call('cat', 'POST', '/oauth/login', form({ request: requestId, email: cat.owner.email }));
  const catCode = await emailedCode(cat.owner.email);
  const bridged = await call(
    'cat',
    'POST',
    '/oauth/login/verify',
    form({ request: requestId, email: cat.owner.email, code: catCode }),
  );
  const cookie = cookieFrom(bridged, `${app.deps.config.SERVICE_NAME}.session_token`) ?? '';
  oauth.session = cookie.slice(cookie.indexOf('=') + 1);
  const consentPage = await call('cat', 'GET', authorization, { headers: { cookie } });
  const approval = approvalOf(consentPage.text);
  oauth.csrf = approval.csrf as string;
  const consented = await call('cat', 'POST', '/oauth/consent', form(approval, cookie));
  oauth.code = new URL(String(consented.headers.location)).searchParams.get('code') ?? '';
  const exchanged = await call(
    'cat',
    'POST',
    '/oauth/token',
    form({
      grant_type: 'authorization_code',
      code: oauth.code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
      resource,
    }),
  );
  const refreshed = await call(
    'cat',
    'POST',
    '/oauth/token',
    form({ grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: clientId }),
  );
  for (const answer of [exchanged, refreshed]) {
    oauth.accessTokens.push(answer.body.access_token);
    oauth.refreshTokens.push(answer.body.refresh_token);
  }

  // A second test bot whose sign-in stays pending, so the table still holds a peek copy when scanned.
  await call('bot', 'POST', '/auth/code/start', {
    body: { email: PENDING_BOT },
    headers: { 'x-api-key': acme.publicKey },
  });
  // Its code by a peek outside the recorded calls, to look for it in the logs and the table.
  const pendingPeek = await app.request('POST', '/auth/code/peek', {
    body: { email: PENDING_BOT },
    headers: { 'x-api-key': acme.secretKey },
    ip: freshIp(),
  });
  codes.add(pendingPeek.body.code as string);
}, 60_000);
afterAll(async () => {
  await app.close();
  await metadata.close();
});

describe('secrets in logs (never a code, token or key in a log)', () => {
  it('ran the flows it claims to have run', () => {
    const statuses = new Set(recorded.map((r) => r.response.status));
    for (const status of [200, 400, 401, 404, 410, 428, 429]) expect(statuses).toContain(status);
    expect(
      recorded.filter((r) => r.route === 'POST /auth/code/verify' && r.response.status === 200),
    ).toHaveLength(2);
    expect(
      recorded.filter((r) => r.route === 'POST /auth/code/poll' && r.response.status === 200),
    ).toHaveLength(1);
    // Six codes of the API's flows and one of the sign-in bridge's.
    expect(codes.size).toBe(7);
    expect(tokens.size).toBeGreaterThanOrEqual(4);
    expect(deviceCodes.size).toBe(6);
    expect(app.logs.length).toBeGreaterThanOrEqual(recorded.length);
    // The OAuth authorization ran to its end: a code, two token answers, every secret known.
    expect(recorded.filter((r) => r.route.startsWith('POST /oauth/')).map((r) => r.response.status)).toEqual([
      200, 303, 303, 200, 200,
    ]);
    expect(oauth.code).toMatch(/^[\w-]{43}$/);
    for (const secret of oauthSecrets()) expect(secret).toMatch(/^[\w.-]{20,}$/);
    expect(new Set(oauthSecrets()).size).toBe(7);
  });

  it('logs no emailed code in any form', () => {
    for (const line of app.logs) {
      for (const code of codes) for (const form of codeForms(code)) expect(line).not.toContain(form);
    }
  });

  it("logs none of an OAuth authorization's secrets: code, access and refresh tokens, CSRF token", () => {
    const signatures = oauth.accessTokens.map((token) => token.split('.')[2]!);
    for (const line of app.logs) {
      for (const secret of [...oauthSecrets(), ...signatures]) expect(line).not.toContain(secret);
    }
  });

  it('logs no session token, API key or device code', () => {
    const secrets = [...tokens.keys(), ...apiKeys, ...deviceCodes.keys()];
    const signatures = [...tokens.keys()].map((token) => token.split('.')[2]!);
    for (const line of app.logs) {
      for (const secret of [...secrets, ...signatures]) expect(line).not.toContain(secret);
      expect(line.toLowerCase()).not.toContain('bearer ');
    }
  });
});

describe('secrets in answers', () => {
  const text = (r: Recorded) => `${r.response.text}\n${JSON.stringify(r.response.headers)}`;

  it('never answers with an emailed code, except peek for its own test address', () => {
    for (const r of recorded) {
      if (r.route === 'POST /auth/code/peek' && r.response.status === 200) continue;
      for (const code of codes) {
        for (const form of codeForms(code)) expect(text(r), r.route).not.toContain(form);
      }
    }
    const peeks = recorded.filter((r) => r.route === 'POST /auth/code/peek');
    expect(peeks.map((r) => r.response.status)).toEqual([200, 401, 404]);
  });

  it("never answers with another user's token", () => {
    for (const r of recorded) {
      for (const [token, owner] of tokens) {
        if (owner !== r.who) expect(text(r), `${r.who}: ${r.route}`).not.toContain(token);
      }
    }
  });

  it("answers verify and poll with the caller's own token only, in body and header alike", () => {
    const signIns = recorded.filter(
      (r) =>
        (r.route === 'POST /auth/code/verify' || r.route === 'POST /auth/code/poll') &&
        r.response.status === 200,
    );
    expect(signIns).toHaveLength(3);
    for (const r of signIns) {
      expect(r.response.headers['set-auth-token']).toBe(r.response.body.token);
      const mentioned = [...tokens.keys()].filter((token) => text(r).includes(token));
      expect(mentioned).toEqual([r.response.body.token]);
    }
  });

  it('answers GET /auth/session for a Bearer caller without the token, even beside another cookie', () => {
    const sessions = recorded.filter((r) => r.route === 'GET /auth/session' && r.response.status === 200);
    const viaBearer = sessions.filter((r) => r.who === 'ada' && r.response.body.token === undefined);
    expect(viaBearer).toHaveLength(2);
    for (const r of viaBearer) expect(r.response.body.user.email).toMatch(/^user-/);
    const adaIds = new Set(viaBearer.map((r) => r.response.body.user.id));
    expect(adaIds.size).toBe(1);
  });

  it('never answers with a device code except to the start that issued it', () => {
    for (const r of recorded) {
      for (const [deviceCode] of deviceCodes) {
        if (r.route === 'POST /auth/code/start' && r.response.body?.deviceCode === deviceCode) continue;
        expect(text(r), r.route).not.toContain(deviceCode);
      }
    }
  });

  it('lists sessions without tokens or token ids', () => {
    const lists = recorded.filter((r) => r.route === 'GET /auth/list-sessions' && r.response.status === 200);
    expect(lists.length).toBeGreaterThan(0);
    for (const r of lists) {
      for (const token of tokens.keys()) expect(r.response.text).not.toContain(token);
      expect(r.response.text).not.toMatch(/jti/);
    }
  });
});

describe('secrets at rest (stored only as SHA-256 hashes)', () => {
  it('stores no token, API key, device code, or code outside the synthetic-domain peek copy', async () => {
    const items: Record<string, unknown>[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await app.deps.db.client.send(
        new ScanCommand({ TableName: app.deps.db.table, ExclusiveStartKey: cursor }),
      );
      items.push(...(page.Items ?? []));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    expect(items.length).toBeGreaterThan(0);
    // The one exception is really there (a consumed request is deleted, so only the pending bot's).
    const peekCopies = items.filter((item) => item.peekCode !== undefined);
    expect(peekCopies.map((item) => item.email)).toEqual([PENDING_BOT]);
    for (const item of items) {
      const { peekCode: _peekCopy, ...rest } = item;
      const stored = JSON.stringify(rest);
      for (const secret of [...tokens.keys(), ...apiKeys, ...deviceCodes.keys(), ...oauthSecrets()]) {
        expect(stored).not.toContain(secret);
      }
      for (const code of codes) for (const form of codeForms(code)) expect(stored).not.toContain(form);
    }
  });

  it("stores an OAuth authorization's code and refresh tokens by their hashes", async () => {
    const { Items = [] } = await app.deps.db.client.send(
      new ScanCommand({
        TableName: app.deps.db.table,
        FilterExpression: 'begins_with(pk, :code) OR begins_with(pk, :refresh)',
        ExpressionAttributeValues: { ':code': 'OAUTHCODE#', ':refresh': 'REFRESH#' },
      }),
    );
    const keys = Items.map((item) => item.pk);
    expect(keys).toContain(`OAUTHCODE#${sha256Hex(oauth.code)}`);
    for (const token of oauth.refreshTokens) expect(keys).toContain(`REFRESH#${sha256Hex(token)}`);
  });
});
