import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATCH_UP_MS, DoorcodeError } from '../../sdk/src/index.ts';
import { envelope, FakeOrigin, FakeService, signInResult } from '../support/fake-browser.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** The rejection of `promise` (fails when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** A tab signed in with `token` (stored as verify would). */
function signedInTab(token = 'tok_1', origin = new FakeOrigin()) {
  origin.storage.set('auth:token', token);
  return { origin, tab: origin.openTab() };
}

describe('requests', () => {
  it('sends the public key on sign-in calls and the stored token on session calls', async () => {
    // Prepare
    const { tab } = signedInTab('tok_1');
    tab.service
      .answer('POST /auth/code/start', { status: 200, body: { sent: true } })
      .answer('GET /auth/list-sessions', { status: 200, body: { items: [], page: {} } })
      .answer('GET /application/by-api-key', { status: 200, body: { id: 'app_1' } });

    // Act
    await tab.client.start({ email: 'ada@example.test' });
    await tab.client.listSessions();
    await tab.client.getApplication();

    // Assess
    const [start, list, application] = tab.service.sent;
    expect(start).toMatchObject({
      path: '/auth/code/start',
      body: { email: 'ada@example.test' },
      headers: { 'x-api-key': 'pu_test', 'content-type': 'application/json' },
    });
    expect(start?.headers).not.toHaveProperty('authorization');
    expect(list?.headers).toMatchObject({ authorization: 'Bearer tok_1', 'x-api-key': 'pu_test' });
    expect(application?.headers).not.toHaveProperty('authorization');
  });

  it('verify stores the token under auth:token and tells onChange', async () => {
    // Prepare
    const origin = new FakeOrigin();
    const tab = origin.openTab();
    tab.service.answer('POST /auth/code/verify', { status: 200, body: signInResult('tok_new') });
    const heard: (string | null)[] = [];
    tab.client.onChange((token) => heard.push(token));

    // Act
    const result = await tab.client.verify({ email: 'ada@example.test', code: 'ABCD-EFGH' });

    // Assess
    expect(result.user.email).toBe('ada@example.test');
    expect(origin.storage.get('auth:token')).toBe('tok_new');
    expect(heard).toEqual(['tok_new']);
  });
});

describe('errors', () => {
  it("are DoorcodeErrors with the service's status, code and attemptsLeft", async () => {
    // Prepare
    const tab = new FakeOrigin().openTab();
    const wrongCode = envelope('VALIDATION_ERROR', { attemptsLeft: 3 });
    tab.service.answer('POST /auth/code/verify', { status: 400, body: wrongCode });

    // Act
    const error = await rejectionOf(tab.client.verify({ email: 'ada@example.test', code: 'ABCD-EFGH' }));

    // Assess
    expect(error).toBeInstanceOf(DoorcodeError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { attemptsLeft: 3 } });
    expect(tab.client.token()).toBeNull();
  });

  it('take retryAfter from Retry-After when the details do not name it', async () => {
    // Prepare
    const tab = new FakeOrigin().openTab();
    const limited = { status: 429, body: envelope('RATE_LIMITED'), headers: { 'retry-after': '42' } };
    tab.service.answer('POST /auth/code/start', limited);

    // Act
    const error = await rejectionOf(tab.client.start({ email: 'ada@example.test' }));

    // Assess
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfter: 42 } });
  });

  it('name an answer without the envelope HTTP_ERROR and an unreachable service NETWORK_ERROR', async () => {
    // Prepare
    const service = new FakeService().answer('POST /auth/code/start', {
      status: 429,
      body: { message: 'Too Many Requests' },
    });
    const tab = new FakeOrigin().openTab(service);
    const unreachable = new FakeOrigin().openTab();

    // Act
    const throttled = await rejectionOf(tab.client.start({ email: 'ada@example.test' }));
    const offline = await rejectionOf(unreachable.client.start({ email: 'ada@example.test' }));

    // Assess
    expect(throttled).toMatchObject({ status: 429, code: 'HTTP_ERROR' });
    expect(offline).toMatchObject({ name: 'DoorcodeError', status: 0, code: 'NETWORK_ERROR' });
  });
});

describe('sessions', () => {
  it('getSession without a stored token is null and sends nothing', async () => {
    // Prepare
    const tab = new FakeOrigin().openTab();

    // Act
    const session = await tab.client.getSession();

    // Assess
    expect(session).toBeNull();
    expect(tab.service.sent).toEqual([]);
  });

  it('a refused token (401) clears the session, writes auth:logout and dispatches auth:session-revoked', async () => {
    // Prepare
    const { origin, tab } = signedInTab('tok_revoked');
    tab.service.answer('GET /auth/list-sessions', { status: 401, body: envelope('UNAUTHORIZED') });
    const heard: (string | null)[] = [];
    tab.client.onChange((token) => heard.push(token));

    vi.useFakeTimers();

    // Act
    const refused = rejectionOf(tab.client.listSessions());
    // A token from another tab gets CATCH_UP_MS to arrive before the session is cleared.
    await vi.advanceTimersByTimeAsync(CATCH_UP_MS);
    const error = await refused;

    // Assess
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(origin.storage.has('auth:token')).toBe(false);
    expect(origin.storage.get('auth:logout')).toEqual(expect.any(String));
    expect(tab.events('auth:session-revoked')).toHaveLength(1);
    expect(heard).toEqual([null]);
  });

  it('getSession answers null (not an error) when the token is refused', async () => {
    // Prepare
    const { tab } = signedInTab('tok_revoked');
    tab.service.answer('GET /auth/session', { status: 401, body: envelope('UNAUTHORIZED') });
    vi.useFakeTimers();

    // Act
    const answer = tab.client.getSession();
    await vi.advanceTimersByTimeAsync(CATCH_UP_MS);
    const session = await answer;

    // Assess
    expect(session).toBeNull();
    expect(tab.events('auth:session-revoked')).toHaveLength(1);
  });

  it('a 401 on a call without a token (a bad key) leaves the session and fires no event', async () => {
    // Prepare
    const { origin, tab } = signedInTab('tok_1');
    tab.service.answer('GET /application/by-api-key', { status: 401, body: envelope('UNAUTHORIZED') });

    // Act
    const error = await rejectionOf(tab.client.getApplication());

    // Assess
    expect(error).toMatchObject({ status: 401 });
    expect(origin.storage.get('auth:token')).toBe('tok_1');
    expect(tab.events('auth:session-revoked')).toEqual([]);
  });

  it('a 401 for a token another tab replaced meanwhile retries once with the new token', async () => {
    // Prepare
    const { origin, tab } = signedInTab('tok_old');
    let release = () => {};
    tab.service.gate = new Promise((resolve) => {
      release = resolve;
    });
    tab.service.answer(
      'GET /auth/list-sessions',
      { status: 401, body: envelope('UNAUTHORIZED') },
      { status: 200, body: { items: [], page: {} } },
    );
    const listed = tab.client.listSessions();

    // Act: another tab refreshes while the first request is in flight.
    origin.storage.set('auth:token', 'tok_refreshed');
    tab.service.gate = undefined;
    release();

    // Assess
    await expect(listed).resolves.toMatchObject({ items: [] });
    expect(tab.service.sent.map((request) => request.headers.authorization)).toEqual([
      'Bearer tok_old',
      'Bearer tok_refreshed',
    ]);
    expect(origin.storage.get('auth:token')).toBe('tok_refreshed');
    expect(tab.events('auth:session-revoked')).toEqual([]);
  });

  it('signOut ends the session in every tab: the other tab hears null through the storage event', async () => {
    // Prepare
    const origin = new FakeOrigin();
    origin.storage.set('auth:token', 'tok_1');
    const first = origin.openTab();
    const second = origin.openTab();
    first.service.answer('POST /auth/sign-out', { status: 200, body: { signedOut: true } });
    const heard: (string | null)[] = [];
    second.client.onChange((token) => heard.push(token));

    // Act
    await first.client.signOut();
    await Promise.resolve();

    // Assess
    expect(first.service.sent[0]).toMatchObject({
      path: '/auth/sign-out',
      headers: { authorization: 'Bearer tok_1' },
    });
    expect(second.client.token()).toBeNull();
    expect(second.events('storage').map((event) => (event as any).key)).toEqual([
      'auth:token',
      'auth:logout',
    ]);
    expect(heard).toEqual([null]);
  });

  it('onChange returns an unsubscribe', async () => {
    // Prepare
    const tab = new FakeOrigin().openTab();
    tab.service.answer('POST /auth/code/verify', { status: 200, body: signInResult('tok_1') });
    const heard: (string | null)[] = [];
    const unsubscribe = tab.client.onChange((token) => heard.push(token));

    // Act
    unsubscribe();
    await tab.client.verify({ email: 'ada@example.test', code: 'ABCD-EFGH' });

    // Assess
    expect(heard).toEqual([]);
  });
});
