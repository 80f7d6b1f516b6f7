import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposablePatterns } from '../../shared/tenancy/origins.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Owned = Awaited<ReturnType<typeof createOwnedApplication>>;

/** `GET /application/by-api-key`: a route that may write the table, as a sign-in page calls it. */
const byKey = (key: string, origin?: string) =>
  app.request('GET', '/application/by-api-key', {
    headers: { 'x-api-key': key, ...(origin === undefined ? {} : { origin }) },
    ip: freshIp(),
  });

const start = (key: string, origin: string) =>
  app.request('POST', '/auth/code/start', {
    body: { email: newEmail() },
    headers: { 'x-api-key': key, origin },
    ip: freshIp(),
  });

/** The application's official origin, as its owner reads it. */
async function originOf(owned: Owned): Promise<string | null> {
  const response = await manage(app, 'GET', `/applications/${owned.applicationId}/configuration`, {
    token: owned.owner.token,
  });
  expect(response.status, response.text).toBe(200);
  return response.body.origin;
}

const setOrigin = (owned: Owned, origin: string | null) =>
  manage(
    app,
    'PATCH',
    `/applications/${owned.applicationId}/configuration`,
    { token: owned.owner.token },
    {
      origin,
    },
  );

describe('origin learning: disposable origins are never recorded', () => {
  let owned: Owned;
  beforeAll(async () => {
    owned = await createOwnedApplication(app);
  });

  it.each(disposablePatterns.map((pattern) => [pattern.pattern, pattern.example]))(
    'records nothing for %s (%s), which authenticates normally',
    async (_pattern, origin) => {
      // Act
      const response = await byKey(owned.publicKey, origin);

      // Assess
      expect(response.status, response.text).toBe(200);
      expect(await originOf(owned)).toBeNull();
    },
  );

  it.each(['null', 'http://notes.acme.com', 'chrome-extension://abcdefghijklmnop', 'https://acme.com/path'])(
    'records nothing for the Origin %j, which is no https origin',
    async (origin) => {
      const response = await byKey(owned.secretKey, origin);
      expect(response.status, response.text).toBe(200);
      expect(await originOf(owned)).toBeNull();
    },
  );

  it('lets a sign-in from a disposable origin start as usual', async () => {
    const response = await start(owned.publicKey, 'https://acme-git-main.vercel.app');
    expect(response.status, response.text).toBe(200);
    expect(await originOf(owned)).toBeNull();
  });
});

describe('origin learning: the first real origin', () => {
  it('is recorded from the first request with a key, and a later one does not replace it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);

    // Act
    const first = await start(owned.publicKey, 'https://Notes.Acme.com');
    const later = [
      await byKey(owned.publicKey, 'https://other.acme.com'),
      await byKey(owned.secretKey, 'https://third.acme.com'),
      await start(owned.secretKey, 'https://fourth.acme.com'),
    ];

    // Assess
    expect(first.status, first.text).toBe(200);
    expect(later.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(await originOf(owned)).toBe('https://notes.acme.com');
  });

  it('records exactly one of two parallel first requests, and it stays', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const origins = ['https://one.acme.com', 'https://two.acme.com'];

    // Act
    const answers = await Promise.all([
      byKey(owned.publicKey, origins[0]),
      byKey(owned.secretKey, origins[1]),
    ]);
    const recorded = await originOf(owned);
    await Promise.all(origins.map((origin) => byKey(owned.publicKey, origin)));

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(origins).toContain(recorded);
    expect(await originOf(owned)).toBe(recorded);
  });

  it('records one origin of ten parallel first requests with ten origins', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const origins = Array.from({ length: 10 }, (_, n) => `https://n${n}.acme.com`);

    // Act
    const answers = await Promise.all(
      origins.map((origin, n) => byKey(n % 2 === 0 ? owned.publicKey : owned.secretKey, origin)),
    );

    // Assess
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(origins).toContain(await originOf(owned));
  });

  it('is learned only on routes that may write: GET /auth/session with a key records nothing', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const headers = { 'x-api-key': owned.publicKey, origin: 'https://notes.acme.com' };

    // Act
    const session = await app.request('GET', '/auth/session', { headers, ip: freshIp() });
    const before = await originOf(owned);
    await byKey(owned.publicKey, 'https://notes.acme.com');

    // Assess
    expect(session.status, session.text).toBe(200);
    expect(before).toBeNull();
    expect(await originOf(owned)).toBe('https://notes.acme.com');
  });
});

describe('origin learning: the owner sets the origin', () => {
  it('sets and replaces it through the configuration; learning never replaces it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await byKey(owned.publicKey, 'https://learned.acme.com');

    // Act
    const set = await setOrigin(owned, 'https://www.acme.com');
    await byKey(owned.secretKey, 'https://other.acme.com');
    const afterLearning = await originOf(owned);
    const replaced = await setOrigin(owned, 'https://app.acme.com');

    // Assess
    expect(set.status, set.text).toBe(200);
    expect(afterLearning).toBe('https://www.acme.com');
    expect(replaced.body.origin).toBe('https://app.acme.com');
    expect(await originOf(owned)).toBe('https://app.acme.com');
  });

  it('lets the next real origin be learned again once the owner removes it, by keys that had seen one too', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await byKey(owned.publicKey, 'https://old.acme.com');
    await byKey(owned.secretKey, 'https://old.acme.com');

    // Act
    const removed = await setOrigin(owned, null);
    await byKey(owned.publicKey, 'https://new.acme.com');

    // Assess
    expect(removed.status, removed.text).toBe(200);
    expect(await originOf(owned)).toBe('https://new.acme.com');
  });

  it('learns nothing after the owner set it, even with a key that never saw it', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    await setOrigin(owned, 'https://www.acme.com');

    // Act
    const response = await byKey(owned.publicKey, 'https://elsewhere.acme.com');

    // Assess
    expect(response.status).toBe(200);
    expect(await originOf(owned)).toBe('https://www.acme.com');
  });
});
