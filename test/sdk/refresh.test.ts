import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, FakeOrigin, FakeService, signInResult } from '../support/fake-browser.ts';

const REFRESH = 'POST /auth/refresh';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** One service both tabs call (the requests of every tab in one list). */
function twoTabs(options: { locks?: boolean } = {}) {
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

    // Act
    const token = await first.client.refresh();

    // Assess
    expect(token).toBeNull();
    expect(origin.storage.has('auth:token')).toBe(false);
    expect(first.events('auth:session-revoked')).toHaveLength(1);
  });
});
