import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
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

/** The largest image docs/api.md ("Profile images") allows: 500 KB of PNG. */
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
/** An uploaded image's URL: 24 base64url characters (144 bits) naming its owner and bytes, then the type. */
const imageUrl = (extension: string) =>
  new RegExp(`^${TEST_ISSUER.replaceAll('.', '\\.')}/images/[A-Za-z0-9_-]{24}\\.${extension}$`);

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
  it('serves the exact bytes with their type, an ETag of their hash and an hour of caching', async () => {
    const { token } = await signIn(app);
    const png = largestPng();
    const url = await upload(token, 'png', png);
    expect(url).toMatch(imageUrl('png'));

    const response = await app.request('GET', pathOf(url));
    expect(response.status).toBe(200);
    expect(response.bytes.equals(png)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      etag: `"${sha256Hex(png)}"`,
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
  });

  it('names an image by its owner and its bytes without showing either: the same upload keeps its URL', async () => {
    const { token, body } = await signIn(app);
    const first = await upload(token, 'gif', GIF_1x1);
    const again = await upload(token, 'gif', GIF_1x1);
    expect(again).toBe(first);
    expect(first).not.toContain(body.user.id);
    expect(first).not.toContain(sha256Hex(GIF_1x1));
    const response = await app.request('GET', pathOf(first));
    expect(response.status).toBe(200);
    expect(response.bytes.equals(GIF_1x1)).toBe(true);
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

  it('stops serving a removed photo: its URL answers 404', async () => {
    const { token } = await signIn(app);
    const url = await upload(token, 'gif', GIF_1x1);
    expect((await update(token, { image: '' })).status).toBe(200);
    expect((await app.request('GET', pathOf(url))).status).toBe(404);
  });

  it('stops serving a replaced photo: the old URL answers 404, the new one 200', async () => {
    const { token } = await signIn(app);
    const old = await upload(token, 'gif', GIF_1x1);
    const png = largestPng();
    const replaced = await upload(token, 'png', png);
    expect(replaced).not.toBe(old);
    expect((await app.request('GET', pathOf(old))).status).toBe(404);
    const served = await app.request('GET', pathOf(replaced));
    expect(served.status).toBe(200);
    expect(served.bytes.equals(png)).toBe(true);

    expect((await update(token, { image: 'https://cdn.example/me.png' })).status).toBe(200);
    expect((await app.request('GET', pathOf(replaced))).status).toBe(404);
  });

  it("gives another user's upload of the same bytes its own URL; removing it leaves the first user's served", async () => {
    const first = await signIn(app);
    const second = await signIn(app);
    const firstUrl = await upload(first.token, 'gif', GIF_1x1);
    const secondUrl = await upload(second.token, 'gif', GIF_1x1);
    expect(secondUrl).not.toBe(firstUrl);
    expect((await update(second.token, { image: '' })).status).toBe(200);
    expect((await app.request('GET', pathOf(secondUrl))).status).toBe(404);
    const served = await app.request('GET', pathOf(firstUrl));
    expect(served.status).toBe(200);
    expect(served.bytes.equals(GIF_1x1)).toBe(true);
  });

  it("never deletes another user's image: linking its URL and then removing the photo leaves it served", async () => {
    const owner = await signIn(app);
    const url = await upload(owner.token, 'gif', GIF_1x1);
    const other = await signIn(app);
    expect((await update(other.token, { image: url })).body.user.image).toBe(url);
    expect((await update(other.token, { image: '' })).status).toBe(200);
    expect((await app.request('GET', pathOf(url))).status).toBe(200);
  });

  it('keeps one image per user under concurrent uploads: the one the profile names is served, no other', async () => {
    const { token } = await signIn(app);
    const gifs = Array.from({ length: 5 }, (_, i) => Buffer.concat([GIF_1x1, Buffer.from([i])]));
    const answers = await Promise.all(
      gifs.map((gif) => update(token, { image: `data:image/gif;base64,${gif.toString('base64')}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const current = (await app.request('GET', '/auth/session', { headers: bearer(token) })).body.user.image;
    for (const answer of answers) {
      const url: string = answer.body.user.image;
      expect((await app.request('GET', pathOf(url))).status, url).toBe(url === current ? 200 : 404);
    }
  });

  it('answers If-None-Match on a removed image 404, not 304 (RFC 9110 §13.2.1: only a 2xx answer is conditional)', async () => {
    const { token } = await signIn(app);
    const url = await upload(token, 'gif', GIF_1x1);
    await update(token, { image: '' });
    for (const ifNoneMatch of [`"${sha256Hex(GIF_1x1)}"`, '*']) {
      const response = await app.request('GET', pathOf(url), { headers: { 'if-none-match': ifNoneMatch } });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('reads the largest image in 63 read units (126 when read strongly consistent) and a revalidation in 0.5', async () => {
    const { token } = await signIn(app);
    const url = await upload(token, 'png', largestPng());
    const read = await metered(() => app.request('GET', pathOf(url)));
    expect(read.response.status).toBe(200);
    expect(read.units).toBe(63);
    const revalidation = await metered(() =>
      app.request('GET', pathOf(url), { headers: { 'if-none-match': `"${sha256Hex(largestPng())}"` } }),
    );
    expect(revalidation.response.status).toBe(304);
    expect(revalidation.units).toBe(0.5);
  });

  it.each([
    ['an id nothing is stored under', () => `${'A'.repeat(24)}.png`],
    ['a stored image under another extension', (id: string) => id.replace(/\.gif$/, '.png')],
    ['the hash of its bytes', () => `${sha256Hex(GIF_1x1)}.gif`],
    ['an id that is not ours', () => 'me.png'],
    ['an id without an extension', (id: string) => id.replace(/\.gif$/, '')],
  ])('answers 404 NOT_FOUND for %s', async (_, idOf) => {
    const { token } = await signIn(app);
    const id =
      pathOf(await upload(token, 'gif', GIF_1x1))
        .split('/')
        .pop() ?? '';
    const response = await app.request('GET', `/images/${idOf(id)}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
    expect(response.headers['cache-control']).toBe('no-store');
  });
});
