import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CATCH_UP_MS } from '../../sdk/src/index.ts';
import { envelope, FakeOrigin, FakeService, signInResult } from '../support/fake-browser.ts';

const REFRESH = 'POST /auth/refresh';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** One service both tabs call (the requests of every tab in one list). */
function twoTabs(options: { locks?: boolean; lag?: boolean } = {}) {
  const origin = new FakeOrigin(options);
  origin.storage.set('auth:token', 'tok_1');
  const service = new FakeService().answer(REFRESH, { status: 200, body: signInResult('tok_2') });
  return { origin, service, first: origin.openTab(service), second: origin.openTab(service) };
}

describe('refresh', () => {
  it('two tabs refreshing at once send one POST /auth/refresh and both end with its token', async () => {
    // Prepare
    const { origin, service, first, second } = twoTabs();

    // Act
    const tokens = await Promise.all([first.client.refresh(), second.client.refresh()]);

    // Assess
    expect(service.count(REFRESH)).toBe(1);
    expect(service.sent[0]?.headers.authorization).toBe('Bearer tok_1');
    expect(tokens).toEqual(['tok_2', 'tok_2']);
    expect(origin.storage.get('auth:token')).toBe('tok_2');
  });

  it('a later refresh, after the first finished, refreshes again', async () => {
    // Prepare
    const { service, first, second } = twoTabs();
    service.answer(
      REFRESH,
      { status: 200, body: signInResult('tok_2') },
      { status: 200, body: signInResult('tok_3') },
    );
    await first.client.refresh();

    // Act
    const token = await second.client.refresh();

    // Assess
    expect(service.count(REFRESH)).toBe(2);
    expect(service.sent[1]?.headers.authorization).toBe('Bearer tok_2');
    expect(token).toBe('tok_3');
  });

  it('without Web Locks, two refreshes in one tab share one request', async () => {
    // Prepare
    const { service, first } = twoTabs({ locks: false });

    // Act
    const tokens = await Promise.all([first.client.refresh(), first.client.refresh()]);

    // Assess
    expect(service.count(REFRESH)).toBe(1);
    expect(tokens).toEqual(['tok_2', 'tok_2']);
  });

  it('without a session answers null and sends nothing', async () => {
    // Prepare
    const tab = new FakeOrigin().openTab();

    // Act
    const token = await tab.client.refresh();

    // Assess
    expect(token).toBeNull();
    expect(tab.service.sent).toEqual([]);
  });

  it('a refused refresh answers null, clears the session and dispatches auth:session-revoked', async () => {
    // Prepare
    const { origin, service, first } = twoTabs();
    service.answer(REFRESH, { status: 401, body: envelope('UNAUTHORIZED') });

    vi.useFakeTimers();

    // Act
    const refreshed = first.client.refresh();
    await vi.advanceTimersByTimeAsync(CATCH_UP_MS);
    const token = await refreshed;

    // Assess
    expect(token).toBeNull();
    expect(origin.storage.has('auth:token')).toBe(false);
    expect(first.events('auth:session-revoked')).toHaveLength(1);
  });
});

describe('a call refused while a refresh is running', () => {
  const LIST = 'GET /auth/list-sessions';
  const list = { status: 200, body: { items: [], nextCursor: null } };
  const refused = { status: 401, body: envelope('UNAUTHORIZED') };
  /** Long enough for a refused call to have cleared the session if it did not wait. */
  const later = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('in the same tab (no Web Locks) waits for the late refresh and calls again with its token', async () => {
    // Prepare
    const { origin, service, first } = twoTabs({ locks: false });
    service.answer(LIST, refused, list);
    const release = service.hold(REFRESH);

    // Act
    const refreshed = first.client.refresh();
    const listed = first.client.listSessions();
    await later();
    release();

    // Assess
    expect(await listed).toEqual(list.body);
    expect(await refreshed).toBe('tok_2');
    expect(
      service.sent.filter((r) => r.path === '/auth/list-sessions').map((r) => r.headers.authorization),
    ).toEqual(['Bearer tok_1', 'Bearer tok_2']);
    expect(origin.storage.get('auth:token')).toBe('tok_2');
    expect(first.events('auth:session-revoked')).toHaveLength(0);
  });

  it('in another tab waits for the refresh lock, then calls again with the new token', async () => {
    // Prepare
    const { origin, service, first, second } = twoTabs();
    service.answer(LIST, refused, list);
    const release = service.hold(REFRESH);

    // Act
    const refreshed = first.client.refresh();
    const listed = second.client.listSessions();
    await later();
    release();

    // Assess
    expect(await listed).toEqual(list.body);
    expect(await refreshed).toBe('tok_2');
    expect(service.count(LIST)).toBe(2);
    expect(origin.storage.get('auth:token')).toBe('tok_2');
    expect(second.events('auth:session-revoked')).toHaveLength(0);
    expect(first.events('auth:session-revoked')).toHaveLength(0);
  });

  it('clears the session when the refresh left the same token (the refresh was refused too)', async () => {
    // Prepare
    const { origin, service, first } = twoTabs({ locks: false });
    service.answer(REFRESH, refused).answer(LIST, refused);
    const release = service.hold(REFRESH);
    vi.useFakeTimers();

    // Act
    const refreshed = first.client.refresh();
    const listed = first.client.listSessions().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(20);
    release();
    // The refused refresh gives a token from another tab CATCH_UP_MS before it clears.
    await vi.advanceTimersByTimeAsync(CATCH_UP_MS);

    // Assess
    expect(await refreshed).toBeNull();
    expect(await listed).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(service.count(LIST)).toBe(1);
    expect(origin.storage.has('auth:token')).toBe(false);
    expect(first.events('auth:session-revoked')).toHaveLength(1);
  });
});

describe("another tab's new token that has not reached this tab yet", () => {
  const LIST = 'GET /auth/list-sessions';
  const SIGN_OUT = 'POST /auth/sign-out';
  const list = { status: 200, body: { items: [], nextCursor: null } };
  const refused = { status: 401, body: envelope('UNAUTHORIZED') };
  /** Half the wait: a tab has sent its request, or cleared the session, by now had it not waited. */
  const meanwhile = () => vi.advanceTimersByTimeAsync(CATCH_UP_MS / 2);
  const authorizations = (service: FakeService, path: string) =>
    service.sent.filter((request) => request.path === path).map((request) => request.headers.authorization);
  /** Whether `promise` has settled, read at any time. */
  const watch = <T>(promise: Promise<T>) => {
    const state = { settled: false, promise };
    promise.then(
      () => {
        state.settled = true;
      },
      () => {
        state.settled = true;
      },
    );
    return state;
  };

  beforeEach(() => {
    vi.useFakeTimers();
  });

  /**
   * Lets `promise` (a tab's call) run while the other tab's writes are held back, then delivers
   * them: whether it had settled before they arrived (and what `observe` saw then), and whether it
   * settled at once after.
   */
  async function acrossDelivery<T, O>(origin: FakeOrigin, promise: Promise<T>, observe?: () => O) {
    const state = watch(promise);
    await meanwhile();
    const settledBefore = state.settled;
    const observed = observe?.();
    origin.deliver();
    await vi.advanceTimersByTimeAsync(0);
    return { settledBefore, observed, settled: state.settled, promise };
  }

  it('a tab that waited for the lock waits for the token too, instead of refreshing again', async () => {
    // Prepare
    const { origin, service, first, second } = twoTabs({ lag: true });

    // Act
    const tokens = await acrossDelivery(
      origin,
      Promise.all([first.client.refresh(), second.client.refresh()]),
      () => service.count(REFRESH),
    );

    // Assess
    expect(tokens.observed).toBe(1);
    expect(tokens.settledBefore).toBe(false);
    // The storage event ends the wait: no need to sit out the rest of it.
    expect(tokens.settled).toBe(true);
    expect(await tokens.promise).toEqual(['tok_2', 'tok_2']);
    expect(service.count(REFRESH)).toBe(1);
    expect(second.events('auth:session-revoked')).toHaveLength(0);
  });

  it('a call refused for the rotated token waits for the new one and calls again, signing nobody out', async () => {
    // Prepare
    const { origin, service, first, second } = twoTabs({ lag: true });
    service.answer(LIST, refused, list);
    await first.client.refresh();

    // Act
    const listed = await acrossDelivery(
      origin,
      second.client.listSessions(),
      () => !origin.storage.has('auth:token'),
    );

    // Assess
    expect(listed.observed).toBe(false);
    expect(listed.settled).toBe(true);
    expect(await listed.promise).toEqual(list.body);
    expect(authorizations(service, '/auth/list-sessions')).toEqual(['Bearer tok_1', 'Bearer tok_2']);
    expect(origin.storage.get('auth:token')).toBe('tok_2');
    expect(origin.storage.has('auth:logout')).toBe(false);
    expect(second.events('auth:session-revoked')).toHaveLength(0);
  });

  it("a tab that waited for the lock hears the other tab's refused refresh: null, and no request", async () => {
    // Prepare
    const { origin, service, first, second } = twoTabs({ lag: true });
    service.answer(REFRESH, refused);

    // Act
    const refreshed = first.client.refresh();
    const waiting = watch(second.client.refresh());
    // The first tab's own wait for a token from elsewhere runs out; it clears the session.
    await vi.advanceTimersByTimeAsync(CATCH_UP_MS);
    const firstToken = await refreshed;
    origin.deliver();
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(firstToken).toBeNull();
    expect(waiting.settled).toBe(true);
    expect(await waiting.promise).toBeNull();
    expect(service.count(REFRESH)).toBe(1);
    expect(first.events('auth:session-revoked')).toHaveLength(1);
    expect(second.events('auth:session-revoked')).toHaveLength(0);
  });

  it('a token refused with nothing on its way clears the session once the wait is over', async () => {
    // Prepare
    const { origin, service, second } = twoTabs({ lag: true });
    service.answer(LIST, refused);

    // Act
    const listed = second.client.listSessions().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(CATCH_UP_MS - 1);
    const clearedEarly = !origin.storage.has('auth:token');
    await vi.advanceTimersByTimeAsync(1);

    // Assess
    expect(clearedEarly).toBe(false);
    expect(await listed).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(origin.storage.has('auth:token')).toBe(false);
    expect(second.events('auth:session-revoked')).toHaveLength(1);
  });

  it("without Web Locks, a call refused for another tab's uncoordinated refresh still waits for its token", async () => {
    // Prepare
    const { origin, service, first, second } = twoTabs({ locks: false, lag: true });
    service.answer(LIST, refused, list);
    await first.client.refresh();

    // Act
    const listed = await acrossDelivery(origin, second.client.listSessions());

    // Assess
    expect(listed.settled).toBe(true);
    expect(await listed.promise).toEqual(list.body);
    expect(origin.storage.get('auth:token')).toBe('tok_2');
    expect(second.events('auth:session-revoked')).toHaveLength(0);
  });

  it('a tab that finds the lock free refreshes at once, waiting for nothing', async () => {
    // Prepare
    const { service, first } = twoTabs({ lag: true });

    // Act
    const refreshed = watch(first.client.refresh());
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(service.count(REFRESH)).toBe(1);
    expect(refreshed.settled).toBe(true);
    expect(await refreshed.promise).toBe('tok_2');
  });

  it("a refresh that finds the lock free but reads the old token: one refused request, then the other tab's token", async () => {
    // Prepare: the service rotated tok_1 for the first tab, so the second's tok_1 is refused.
    const { origin, service, first, second } = twoTabs({ lag: true });
    service.answer(REFRESH, { status: 200, body: signInResult('tok_2') }, refused);
    await first.client.refresh();

    // Act
    const refreshed = await acrossDelivery(origin, second.client.refresh());

    // Assess
    expect(refreshed.settledBefore).toBe(false);
    expect(refreshed.settled).toBe(true);
    expect(await refreshed.promise).toBe('tok_2');
    expect(authorizations(service, '/auth/refresh')).toEqual(['Bearer tok_1', 'Bearer tok_1']);
    expect(origin.storage.get('auth:token')).toBe('tok_2');
    expect(second.events('auth:session-revoked')).toHaveLength(0);
  });

  it('a sign-out while another tab refreshes waits for it and ends the session with the new token', async () => {
    // Prepare: the service answers sign-out 200 for any token, so a rotated one would end nothing.
    const { origin, service, first, second } = twoTabs({ lag: true });
    service.answer(SIGN_OUT, { status: 200, body: { signedOut: true } });
    const release = service.hold(REFRESH);

    // Act
    const refreshed = first.client.refresh();
    const signingOut = second.client.signOut();
    await vi.advanceTimersByTimeAsync(0);
    const sentDuringRefresh = service.count(SIGN_OUT);
    release();
    const firstToken = await refreshed;
    const signedOut = await acrossDelivery(origin, signingOut);

    // Assess
    expect(firstToken).toBe('tok_2');
    expect(sentDuringRefresh).toBe(0);
    expect(signedOut.settledBefore).toBe(false);
    expect(signedOut.settled).toBe(true);
    await signedOut.promise;
    expect(authorizations(service, '/auth/sign-out')).toEqual(['Bearer tok_2']);
    expect(origin.storage.has('auth:token')).toBe(false);
  });

  it('a sign-out with no refresh anywhere goes at once with the stored token', async () => {
    // Prepare
    const { origin, service, first } = twoTabs({ lag: true });
    service.answer(SIGN_OUT, { status: 200, body: { signedOut: true } });

    // Act
    const signedOut = watch(first.client.signOut());
    await vi.advanceTimersByTimeAsync(0);

    // Assess
    expect(signedOut.settled).toBe(true);
    await expect(signedOut.promise).resolves.toBeUndefined();
    expect(authorizations(service, '/auth/sign-out')).toEqual(['Bearer tok_1']);
    expect(origin.storage.has('auth:token')).toBe(false);
    expect(first.events('auth:session-revoked')).toHaveLength(0);
  });
});
