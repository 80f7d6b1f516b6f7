import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DoorcodeError } from '../../sdk/src/index.ts';
import { envelope, FakeOrigin, type FakeTab, signInResult } from '../support/fake-browser.ts';

const POLL = 'POST /auth/code/poll';
const DEVICE_CODE = 'd'.repeat(64);
const pending = {
  status: 428,
  body: envelope('UNPROCESSABLE', { reason: 'authorization_pending', interval: 5 }),
};
const approved = { status: 200, body: signInResult('tok_polled') };

/** Settles `promise` into a value, so a rejection while timers run is not reported as unhandled. */
const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

let tab: FakeTab;
let startedAt: number;
/** When (ms after the test began) each poll request was sent. */
const pollTimes = () => tab.service.sent.map((request) => request.at - startedAt);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  tab = new FakeOrigin().openTab();
  startedAt = Date.now();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('poll', () => {
  it('waits the interval before each poll while the code is pending, then stores the session', async () => {
    // Prepare
    tab.service.answer(POLL, pending, pending, approved);

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5, expiresIn: 600 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    expect(await outcome).toMatchObject({ ok: true, value: { token: 'tok_polled' } });
    expect(pollTimes()).toEqual([5_000, 10_000, 15_000]);
    expect(tab.service.sent[0]).toMatchObject({ body: { deviceCode: DEVICE_CODE } });
    // Poll reads no key (docs/api.md, Endpoints), so none is sent.
    expect(tab.service.sent[0]?.headers).not.toHaveProperty('x-api-key');
    expect(tab.client.token()).toBe('tok_polled');
  });

  it('keeps the longer interval of slow_down for every later poll', async () => {
    // Prepare
    const slowDown = { status: 429, body: envelope('RATE_LIMITED', { reason: 'slow_down', interval: 10 }) };
    tab.service.answer(POLL, pending, slowDown, pending, approved);

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    expect((await outcome).ok).toBe(true);
    expect(pollTimes()).toEqual([5_000, 10_000, 20_000, 30_000]);
  });

  it('waits retryAfter after a plain rate limit', async () => {
    // Prepare
    const limited = { status: 429, body: envelope('RATE_LIMITED'), headers: { 'retry-after': '30' } };
    tab.service.answer(POLL, limited, approved);

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    expect((await outcome).ok).toBe(true);
    expect(pollTimes()).toEqual([5_000, 35_000]);
  });

  it("waits the interval after API Gateway's own 429 (no envelope, no Retry-After) and polls again", async () => {
    // Prepare
    const throttled = { status: 429, body: { message: 'Too Many Requests' } };
    tab.service.answer(POLL, throttled, approved);

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    expect(await outcome).toMatchObject({ ok: true, value: { token: 'tok_polled' } });
    expect(pollTimes()).toEqual([5_000, 10_000]);
  });

  it('waits the retryAfter of a 503 (header or details) and polls again', async () => {
    // Prepare
    const header = { status: 503, body: envelope('SERVICE_UNAVAILABLE'), headers: { 'retry-after': '30' } };
    const details = { status: 503, body: envelope('SERVICE_UNAVAILABLE', { retryAfter: 20 }) };
    tab.service.answer(POLL, header, details, approved);

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5 }));
    await vi.advanceTimersByTimeAsync(120_000);

    // Assess
    expect((await outcome).ok).toBe(true);
    expect(pollTimes()).toEqual([5_000, 35_000, 55_000]);
  });

  it('stops on a 503 without retryAfter', async () => {
    // Prepare
    tab.service.answer(POLL, { status: 503, body: envelope('SERVICE_UNAVAILABLE') });

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    const result = await outcome;
    expect(result.ok || result.error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(pollTimes()).toEqual([5_000]);
  });

  it('waits the interval after a poll that reached no one, until the deadline', async () => {
    // Prepare
    tab.service.answer(POLL, { status: 0 }, approved);

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    expect((await outcome).ok).toBe(true);
    expect(pollTimes()).toEqual([5_000, 10_000]);
  });

  it('ends with EXPIRED when the network stays down past the deadline', async () => {
    // Prepare
    tab.service.answer(POLL, { status: 0 });

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5, expiresIn: 12 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    const result = await outcome;
    expect(result.ok || result.error).toMatchObject({ status: 400, code: 'EXPIRED' });
    expect(pollTimes()).toEqual([5_000, 10_000]);
  });

  it('stops with EXPIRED instead of polling after the request expires', async () => {
    // Prepare
    tab.service.answer(POLL, pending);

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, interval: 5, expiresIn: 12 }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    const result = await outcome;
    expect(result.ok).toBe(false);
    expect(result.ok || result.error).toMatchObject({ name: 'DoorcodeError', status: 400, code: 'EXPIRED' });
    expect(pollTimes()).toEqual([5_000, 10_000]);
    expect(tab.client.token()).toBeNull();
  });

  it("stops on the service's own errors (an unusable device code)", async () => {
    // Prepare
    tab.service.answer(POLL, { status: 400, body: envelope('FORBIDDEN') });

    // Act
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE }));
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    const result = await outcome;
    expect(result.ok || result.error).toBeInstanceOf(DoorcodeError);
    expect(result.ok || result.error).toMatchObject({ status: 400, code: 'FORBIDDEN' });
    expect(pollTimes()).toEqual([5_000]);
  });

  it('stops at once when its signal aborts, with the AbortError and no further request', async () => {
    // Prepare
    tab.service.answer(POLL, pending);
    const controller = new AbortController();
    const outcome = settle(tab.client.poll({ deviceCode: DEVICE_CODE, signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(7_000);

    // Act
    controller.abort();
    await vi.advanceTimersByTimeAsync(60_000);

    // Assess
    const result = await outcome;
    expect(result.ok || result.error).toMatchObject({ name: 'AbortError' });
    expect(pollTimes()).toEqual([5_000]);
  });
});
