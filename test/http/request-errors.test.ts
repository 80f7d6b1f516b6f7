import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../shared/http/body.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { freshIp, type RequestOptions, type TestResponse } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
/** Peek needs the secret key to get past authentication; the other routes need no key. */
let secretKey: string;
beforeAll(async () => {
  app = await startTestApp();
  secretKey = (
    await createTestApplication(app, { authentication: { syntheticEmailDomain: 'synthetic.test' } })
  ).secretKey;
});
afterAll(() => app.close());

interface RouteCase {
  path: string;
  /** A body that passes validation. */
  valid: () => Record<string, unknown>;
  /** Bodies that fail validation, with the paths the issues must name. */
  invalid: { name: string; body: unknown; paths: string[] }[];
  keyed?: boolean;
}

const routes: RouteCase[] = [
  {
    path: '/auth/code/start',
    valid: () => ({ email: newEmail() }),
    invalid: [
      { name: 'no fields', body: {}, paths: ['email'] },
      { name: 'wrong types', body: { email: 42, name: 7 }, paths: ['email', 'name'] },
      { name: 'not an email', body: { email: 'not-an-email' }, paths: ['email'] },
      { name: 'an empty name', body: { email: newEmail(), name: '' }, paths: ['name'] },
    ],
  },
  {
    path: '/auth/code/verify',
    valid: () => ({ email: newEmail(), code: 'ABCD-EFGH' }),
    invalid: [
      { name: 'no fields', body: {}, paths: ['email', 'code'] },
      { name: 'wrong types', body: { email: newEmail(), code: 12345678 }, paths: ['code'] },
      {
        name: 'a code that cannot be right',
        body: { email: newEmail(), code: 'ABCD-EFG0' },
        paths: ['code'],
      },
    ],
  },
  {
    path: '/auth/code/approve',
    valid: () => ({ email: newEmail(), code: 'ABCD-EFGH' }),
    invalid: [
      { name: 'no fields', body: {}, paths: ['email', 'code'] },
      { name: 'wrong types', body: { email: [], code: 'ABCD-EFGH' }, paths: ['email'] },
    ],
  },
  {
    path: '/auth/code/poll',
    valid: () => ({ deviceCode: 'ab'.repeat(32) }),
    invalid: [
      { name: 'no fields', body: {}, paths: ['deviceCode'] },
      { name: 'wrong types', body: { deviceCode: 1234 }, paths: ['deviceCode'] },
    ],
  },
  {
    path: '/auth/code/peek',
    valid: () => ({ email: newEmail('synthetic.test') }),
    invalid: [
      { name: 'no fields', body: {}, paths: ['email'] },
      { name: 'wrong types', body: { email: true }, paths: ['email'] },
    ],
    keyed: true,
  },
];

const JSON_TYPE = { 'content-type': 'application/json' };

function send(route: RouteCase, options: RequestOptions): Promise<TestResponse> {
  const headers = { ...(route.keyed ? { 'x-api-key': secretKey } : {}), ...options.headers };
  return app.request('POST', route.path, { ...options, headers, ip: freshIp() });
}

describe.each(routes)('POST $path: request errors', (route) => {
  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    // Act
    const response = await send(route, { raw: '{"email": "a@b.test",', headers: JSON_TYPE });

    // Assess
    expectError(response, 400, 'VALIDATION_ERROR');
  });

  it('answers a body that is not application/json with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    // Prepare
    const raw = JSON.stringify(route.valid());

    // Act
    const textPlain = await send(route, { raw, headers: { 'content-type': 'text/plain' } });
    const noType = await send(route, { raw });

    // Assess
    expectError(textPlain, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(noType, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('reads the JSON media type case-insensitively, with or without parameters (RFC 9110 §8.3.1)', async () => {
    const outcome = (response: TestResponse) => [response.status, response.body?.error?.message];
    const reference = outcome(await send(route, { raw: JSON.stringify(route.valid()), headers: JSON_TYPE }));
    for (const type of ['Application/JSON', 'application/json;', 'application/json ; charset=utf-8']) {
      const response = await send(route, {
        raw: JSON.stringify(route.valid()),
        headers: { 'content-type': type },
      });
      expect(outcome(response)).toEqual(reference);
    }
  });

  it('answers an empty body with 400 VALIDATION_ERROR', async () => {
    // Act
    const empty = await send(route, { raw: '', headers: JSON_TYPE });
    const none = await send(route, { headers: JSON_TYPE });

    // Assess
    expectError(empty, 400, 'VALIDATION_ERROR');
    expectError(none, 400, 'VALIDATION_ERROR');
  });

  it('answers a body over 768 KiB with 413 PAYLOAD_TOO_LARGE, and reads one of exactly 768 KiB', async () => {
    // Prepare: valid JSON padded to the size (the padding field is not part of any schema).
    const padded = (bytes: number) => {
      const shell = JSON.stringify({ ...route.valid(), padding: '' });
      return `${shell.slice(0, -2)}${'x'.repeat(bytes - Buffer.byteLength(shell))}"}`;
    };
    const over = padded(MAX_BODY_BYTES + 1);
    const atLimit = padded(MAX_BODY_BYTES);
    expect(Buffer.byteLength(over)).toBe(768 * 1024 + 1);
    expect(Buffer.byteLength(atLimit)).toBe(768 * 1024);

    // Act
    const tooLarge = await send(route, { raw: over, headers: JSON_TYPE });
    const largest = await send(route, { raw: atLimit, headers: JSON_TYPE });

    // Assess
    expectError(tooLarge, 413, 'PAYLOAD_TOO_LARGE');
    expect(largest.status).not.toBe(413);
  });

  it('answers a JSON value that is not an object with 400 VALIDATION_ERROR', async () => {
    for (const raw of ['null', '[]', '"text"', '42']) {
      // Act
      const response = await send(route, { raw, headers: JSON_TYPE });

      // Assess
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(response.body.error.details.issues).toEqual([expect.objectContaining({ path: '' })]);
    }
  });

  it.each(route.invalid)(
    'answers $name with 400 VALIDATION_ERROR naming each field',
    async ({ body, paths }) => {
      // Act
      const response = await send(route, { body });

      // Assess
      expectError(response, 400, 'VALIDATION_ERROR');
      const { issues } = response.body.error.details;
      expect(Array.isArray(issues)).toBe(true);
      for (const issue of issues) {
        expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) });
      }
      expect([...new Set(issues.map((issue: { path: string }) => issue.path))].sort()).toEqual(
        [...paths].sort(),
      );
    },
  );
});

describe.each(routes.filter((route) => route.path !== '/auth/code/poll'))(
  'POST $path: an invalid X-API-Key',
  (route) => {
    it.each([
      ['a malformed key', 'nope'],
      ['a well-formed unknown public key', `pu_${'A'.repeat(32)}`],
      ['a well-formed unknown secret key', `sk_${'A'.repeat(32)}`],
    ])('answers %s with 401 UNAUTHORIZED', async (_, key) => {
      // Act
      const response = await send(route, { body: route.valid(), headers: { 'x-api-key': key } });

      // Assess
      expectError(response, 401, 'UNAUTHORIZED');
    });
  },
);
