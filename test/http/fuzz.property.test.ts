import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import fc from '../support/fast-check.ts';
import { freshIp, type TestResponse } from '../support/http-client.ts';
import { bearer, signIn } from '../support/sign-in.ts';
import { createTestApplication } from '../support/tenancy.ts';

let app: TestApp;
let keys: { publicKey: string; secretKey: string };
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  keys = await createTestApplication(app, { authentication: { syntheticEmailDomain: 'bots.test' } });
  token = (await signIn(app)).token;
});
afterAll(() => app.close());

/** One request body: a JSON value to encode, or raw text sent as is. */
type Body = { json: unknown } | { raw: string; contentType?: string };

/** Strings near the fields the routes read, so some bodies get past the schema. */
const nearField = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.emailAddress(),
  fc.constantFrom('a@bots.test', 'ABCD-EFGH', 'abcdefgh', '', ' ', '0'.repeat(64), 'x'.repeat(200)),
  fc.stringMatching(/^[A-Z2-9]{4}-?[A-Z2-9]{4}$/),
  fc.stringMatching(/^[0-9a-f]{64}$/),
  fc.stringMatching(/^data:image\/(png|gif);base64,[A-Za-z0-9+/]{0,16}={0,2}$/),
);
const shaped = fc.record(
  {
    email: fc.oneof(nearField, fc.anything()),
    code: fc.oneof(nearField, fc.anything()),
    deviceCode: fc.oneof(nearField, fc.anything()),
    name: fc.oneof(nearField, fc.anything()),
    image: fc.oneof(nearField, fc.anything()),
    id: fc.oneof(nearField, fc.anything()),
  },
  { requiredKeys: [] },
);

const bodies: fc.Arbitrary<Body> = fc.oneof(
  fc.anything().map((json) => ({ json })),
  fc.jsonValue().map((json) => ({ json })),
  fc.object().map((json) => ({ json })),
  shaped.map((json) => ({ json })),
  fc.string({ unit: 'binary', maxLength: 200 }).map((raw) => ({ raw, contentType: 'application/json' })),
  fc
    .tuple(
      fc.string({ maxLength: 100 }),
      fc.constantFrom(undefined, 'text/plain', 'application/json; charset=utf-8'),
    )
    .map(([raw, contentType]) => ({ raw, ...(contentType ? { contentType } : {}) })),
);

async function post(path: string, body: Body, headers: Record<string, string>): Promise<TestResponse> {
  const raw = 'json' in body ? (JSON.stringify(body.json) ?? '') : body.raw;
  const contentType = 'json' in body ? 'application/json' : body.contentType;
  return app.request('POST', path, {
    raw,
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
    ip: freshIp(),
  });
}

/** Never a 500; every refusal is the platform envelope with a stable code (docs/api.md, Endpoints). */
function expectWellFormed(response: TestResponse, body: Body): void {
  const context = `${response.status} ${response.text.slice(0, 300)} for ${JSON.stringify(body).slice(0, 300)}`;
  expect(response.status, context).toBeLessThan(500);
  expect(response.headers['content-type'], context).toMatch(/^application\/json/);
  if (response.status >= 400) {
    expect(response.body?.error?.code, context).toMatch(/^[A-Z_]+$/);
    expect(typeof response.body.error.message, context).toBe('string');
  } else {
    expect(response.status, context).toBe(200);
    expect(response.body, context).toEqual(expect.any(Object));
  }
}

const json = (arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<Body> =>
  arbitrary.map((value) => ({ json: value }));
const email = fc.oneof(fc.emailAddress(), fc.stringMatching(/^[a-z0-9.+-]{1,20}@(bots|example)\.test$/));
const code = fc.oneof(fc.stringMatching(/^[A-Za-z2-9]{4}[- ]?[A-Za-z2-9]{4}$/), nearField);
const deviceCode = fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string({ minLength: 64, maxLength: 64 }));

/** Per route, bodies close to valid, so the fuzz also reaches the logic behind the schema. */
const routes: { path: string; headers: () => Record<string, string>; near: fc.Arbitrary<Body> }[] = [
  {
    path: '/auth/code/start',
    headers: () => ({}),
    near: json(fc.record({ email, name: nearField }, { requiredKeys: ['email'] })),
  },
  {
    path: '/auth/code/verify',
    headers: () => ({ 'x-api-key': keys.publicKey }),
    near: json(fc.record({ email, code })),
  },
  { path: '/auth/code/approve', headers: () => ({}), near: json(fc.record({ email, code })) },
  { path: '/auth/code/poll', headers: () => ({}), near: json(fc.record({ deviceCode })) },
  {
    path: '/auth/code/peek',
    headers: () => ({ 'x-api-key': keys.secretKey }),
    near: json(fc.record({ email })),
  },
  {
    path: '/auth/update-user',
    headers: () => bearer(token),
    near: json(fc.record({ name: nearField, image: nearField }, { requiredKeys: [] })),
  },
  {
    path: '/auth/revoke-session-by-id',
    headers: () => bearer(token),
    near: json(fc.record({ id: fc.oneof(nearField, fc.stringMatching(/^ses_[A-Za-z0-9_-]{22}$/)) })),
  },
];

describe('every JSON route under arbitrary bodies', () => {
  for (const route of routes) {
    it(`POST ${route.path} never answers 500 and always uses the error envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(bodies, route.near), async (body) => {
          expectWellFormed(await post(route.path, body, route.headers()), body);
        }),
        { numRuns: 50 },
      );
    });
  }

  it('keeps the fuzzing session alive (revoke-session-by-id ignored every foreign id)', async () => {
    const session = await app.request('GET', '/auth/session', { headers: bearer(token) });
    expect(session.status).toBe(200);
  });
});
