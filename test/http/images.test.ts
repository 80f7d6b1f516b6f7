import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../bench/call-counter.ts';
import { sha256Hex } from '../../shared/crypto/hash.ts';
import { MAX_IMAGE_BYTES } from '../../shared/users/schemas.ts';
import { startTestApp, TEST_ISSUER, type TestApp } from '../support/app.ts';
import { CapacityMeter } from '../support/capacity.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';

const counter = new CallCounter();
const meter = new CapacityMeter();
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  counter.watch(app.deps);
  meter.watch(app.deps);
});
afterAll(() => app.close());

/** The largest image SPEC §8 allows: 500 KB of PNG. */
function largestPng(): Buffer {
  const png = Buffer.alloc(MAX_IMAGE_BYTES);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(png);
  for (let i = 8; i < png.length; i++) png[i] = (i * 7919) % 251;
  return png;
}
const GIF_1x1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const update = (token: string, body: unknown) =>
  app.request('POST', '/auth/update-user', { body, headers: bearer(token) });
const upload = async (token: string, type: string, bytes: Buffer): Promise<string> =>
  (await update(token, { image: `data:image/${type};base64,${bytes.toString('base64')}` })).body.user.image;
const pathOf = (url: string) => new URL(url).pathname;

async function metered(run: () => Promise<{ status: number; bytes: Buffer }>) {
  counter.reset();
  meter.reset();
  const response = await run();
  return { response, commands: counter.snapshot().commands, units: meter.units };
}

describe('GET /auth/session with a photo', () => {
  it('stays one small BatchGetItem with the largest photo: same calls and read units as without one', async () => {
    const { token } = await signIn(app);
    const session = () => app.request('GET', '/auth/session', { headers: bearer(token) });
    const without = await metered(session);
    const url = await upload(token, 'png', largestPng());
    const withPhoto = await metered(session);

    expect(withPhoto.response.status).toBe(200);
    expect(withPhoto.response.bytes.length).toBeLessThan(2048);
    expect(withPhoto.commands).toEqual(['BatchGetItemCommand']);
    expect(withPhoto.commands).toEqual(without.commands);
    expect(withPhoto.units).toBeGreaterThan(0);
    expect(withPhoto.units).toBe(without.units);
    expect((withPhoto.response as { body?: { user: { image: string } } }).body?.user.image).toBe(url);
  });

  it('answers an https URL as given, and nothing once the photo is removed', async () => {
    const email = newEmail();
    const { token } = await signIn(app, email);
    const url = 'https://cdn.example/people/ada.png?size=256';
    expect((await update(token, { image: url })).body.user.image).toBe(url);
    expect((await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.image).toBe(url);
    expect((await signIn(app, email)).body.user.image).toBe(url);
    await upload(token, 'gif', GIF_1x1);
    expect((await update(token, { image: '' })).body.user.image).toBeNull();
    expect(
      (await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.image,
    ).toBeNull();
    expect((await signIn(app, email)).body.user.image).toBeNull();
  });
});

describe('GET /images/{id}', () => {
  it('serves the exact bytes with their type, an ETag of their hash and a year of immutable caching', async () => {
    const { token } = await signIn(app);
    const png = largestPng();
    const url = await upload(token, 'png', png);
    expect(url).toBe(`${TEST_ISSUER}/images/${sha256Hex(png)}.png`);

    const response = await app.request('GET', pathOf(url));
    expect(response.status).toBe(200);
    expect(response.bytes.equals(png)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      etag: `"${sha256Hex(png)}"`,
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
  });

  it('answers a revalidation with its ETag 304, without a body', async () => {
    const { token } = await signIn(app);
    const url = await upload(token, 'gif', GIF_1x1);
    const etag = `"${sha256Hex(GIF_1x1)}"`;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await app.request('GET', pathOf(url), { headers: { 'if-none-match': ifNoneMatch } });
      expect(response.status).toBe(304);
      expect(response.bytes.length).toBe(0);
      expect(response.headers).toMatchObject({ etag, 'content-type': 'image/gif' });
    }
    const changed = await app.request('GET', pathOf(url), { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
    expect(changed.bytes.equals(GIF_1x1)).toBe(true);
  });

  it('names the same bytes by one URL whoever uploads them', async () => {
    const first = await upload((await signIn(app)).token, 'gif', GIF_1x1);
    const second = await upload((await signIn(app)).token, 'gif', GIF_1x1);
    expect(second).toBe(first);
  });

  it.each([
    ['an id nothing is stored under', `${'0'.repeat(64)}.png`],
    ['a stored image under another extension', `${sha256Hex(GIF_1x1)}.png`],
    ['an id that is not a hash', 'me.png'],
    ['an id without an extension', sha256Hex(GIF_1x1)],
  ])('answers 404 NOT_FOUND for %s', async (_, id) => {
    const { token } = await signIn(app);
    await upload(token, 'gif', GIF_1x1);
    const response = await app.request('GET', `/images/${id}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
    expect(response.headers['cache-control']).toBe('no-store');
  });
});
