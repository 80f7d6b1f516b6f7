import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { generateLocalKeyPem, LocalSigner } from '../../shared/crypto/local-signer.ts';
import {
  createVerifier,
  JWKS_MAX_AGE_MS,
  REFETCH_COOLDOWN_MS,
  type Verifier,
  VerifierError,
} from '../../verifier/src/index.ts';
import { type JwksServer, startJwksServer } from '../support/jwks-server.ts';
import { testKeyPair } from '../support/keys.ts';

const ISSUER = 'https://auth.doorcode.test';
const START = Date.UTC(2026, 10, 23, 12, 0, 0);

const signer = new LocalSigner(testKeyPair().pem);
/** A key the JWKS does not publish (until a test rotates it in). */
const stranger = new LocalSigner(generateLocalKeyPem());

let jwks: JwksServer;
let now: number;
let verifier: Verifier;

/** A session token as the service signs it, issued at the verifier's current time. */
function sessionToken(by: LocalSigner = signer, claims: Record<string, unknown> = {}) {
  const iat = Math.floor(now / 1000);
  return signJwt(by, {
    iss: ISSUER,
    sub: 'usr_1',
    email: 'a@example.test',
    sid: 'ses_1',
    aud: 'platform',
    jti: 'jti_1',
    iat,
    exp: iat + 7 * 24 * 3600,
    ...claims,
  });
}

/** `token` with its header's `kid` replaced (the signature no longer matches: never checked here). */
function withKid(token: string, kid: string): string {
  const [header, payload, signature] = token.split('.');
  const forged = { ...JSON.parse(Buffer.from(header ?? '', 'base64url').toString()), kid };
  return [Buffer.from(JSON.stringify(forged)).toString('base64url'), payload, signature].join('.');
}

beforeAll(async () => {
  jwks = await startJwksServer(await signer.publicKeys());
});
afterAll(() => jwks.close());

beforeEach(async () => {
  jwks.serve(await signer.publicKeys());
  jwks.fail(null);
  now = START;
  verifier = createVerifier({ issuer: ISSUER, jwksUrl: jwks.url, now: () => now });
});

describe('the JWKS cache', () => {
  it('fetches the key set once for 1000 verifications within the hour, and again after it', async () => {
    // Prepare
    const before = jwks.fetches();
    const token = await sessionToken();

    // Act
    const results = await Promise.all(Array.from({ length: 1000 }, () => verifier.verifySession(token)));
    now += JWKS_MAX_AGE_MS - 1000;
    const lastInHour = await verifier.verifySession(token);
    const fetchesInHour = jwks.fetches() - before;
    now += 2000;
    const afterHour = await Promise.all(Array.from({ length: 100 }, () => verifier.verifySession(token)));

    // Assess
    expect(results.every((result) => result.ok)).toBe(true);
    expect(lastInHour.ok).toBe(true);
    expect(fetchesInHour).toBe(1);
    expect(afterHour.every((result) => result.ok)).toBe(true);
    expect(jwks.fetches() - before).toBe(2);
  });

  it('refetches ONCE for a burst of 100 tokens with 100 different unknown kids, then fails them without fetching during the cooldown', async () => {
    // Prepare
    await verifier.verifySession(await sessionToken());
    now += REFETCH_COOLDOWN_MS;
    const before = jwks.fetches();
    // Each token names its own kid (forged in the header: the kid is looked up before the signature
    // is checked), so a cooldown per kid would refetch 100 times and fail this test.
    const unknown = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => withKid(await sessionToken(stranger), `kid_unknown_${i}`)),
    );
    expect(new Set(unknown.map((token) => decodeProtectedHeader(token).kid)).size).toBe(100);

    // Act
    const burst = await Promise.all(unknown.map((token) => verifier.verifySession(token)));
    const fetchesAfterBurst = jwks.fetches() - before;
    now += REFETCH_COOLDOWN_MS - 1000;
    const inCooldown = await Promise.all(unknown.map((token) => verifier.verifySession(token)));
    // One after another (nothing in flight to join), 100 more kids never seen before.
    const stranger0 = unknown[0] as string;
    const oneByOne = [];
    for (let i = 0; i < 100; i++)
      oneByOne.push(await verifier.verifySession(withKid(stranger0, `kid_later_${i}`)));

    // Assess
    expect(new Set(burst.map((result) => (result.ok ? 'ok' : result.code)))).toEqual(
      new Set(['KEY_UNKNOWN']),
    );
    expect(fetchesAfterBurst).toBe(1);
    expect(inCooldown.every((result) => !result.ok && result.code === 'KEY_UNKNOWN')).toBe(true);
    expect(oneByOne.every((result) => !result.ok && result.code === 'KEY_UNKNOWN')).toBe(true);
    expect(jwks.fetches() - before).toBe(1);
  });

  it('accepts a key published after the set was cached at its first unknown kid after the cooldown (rotation)', async () => {
    // Prepare
    await verifier.verifySession(await sessionToken());
    jwks.serve([...(await signer.publicKeys()), ...(await stranger.publicKeys())]);
    now += REFETCH_COOLDOWN_MS;
    const before = jwks.fetches();

    // Act
    const rotated = await verifier.verifySession(await sessionToken(stranger));

    // Assess
    expect(rotated.ok).toBe(true);
    expect(jwks.fetches() - before).toBe(1);
  });

  it('passes a concurrent burst of 100 tokens of a newly published key with ONE refetch that they all wait for', async () => {
    // Prepare
    await verifier.verifySession(await sessionToken());
    jwks.serve([...(await signer.publicKeys()), ...(await stranger.publicKeys())]);
    now += REFETCH_COOLDOWN_MS;
    const before = jwks.fetches();
    const tokens = await Promise.all(
      Array.from({ length: 100 }, (_, i) => sessionToken(stranger, { jti: `jti_${i}` })),
    );

    // Act
    const burst = await Promise.all(tokens.map((token) => verifier.verifySession(token)));

    // Assess
    expect(burst.every((result) => result.ok)).toBe(true);
    expect(jwks.fetches() - before).toBe(1);
  });

  it('keeps the cached keys when the hourly refresh fails, and retries after the cooldown', async () => {
    // Prepare
    const token = await sessionToken();
    await verifier.verifySession(token);
    jwks.fail(500);
    now += JWKS_MAX_AGE_MS + 1000;
    const before = jwks.fetches();

    // Act
    const duringOutage = await Promise.all(Array.from({ length: 20 }, () => verifier.verifySession(token)));
    const fetchesDuringOutage = jwks.fetches() - before;
    jwks.fail(null);
    now += REFETCH_COOLDOWN_MS;
    const afterOutage = await verifier.verifySession(token);

    // Assess
    expect(duringOutage.every((result) => result.ok)).toBe(true);
    expect(fetchesDuringOutage).toBe(1);
    expect(afterOutage.ok).toBe(true);
    expect(jwks.fetches() - before).toBe(2);
  });

  it('throws JWKS_UNAVAILABLE when no key set was ever fetched, without fetching again during the cooldown', async () => {
    // Prepare
    jwks.fail(500);
    const token = await sessionToken();
    const before = jwks.fetches();

    // Act
    const first = await verifier.verifySession(token).catch((error: unknown) => error);
    const second = await verifier.verifySession(token).catch((error: unknown) => error);

    // Assess
    expect(first).toBeInstanceOf(VerifierError);
    expect((first as VerifierError).code).toBe('JWKS_UNAVAILABLE');
    expect((second as VerifierError).code).toBe('JWKS_UNAVAILABLE');
    expect(jwks.fetches() - before).toBe(1);
  });
});

describe('createVerifier', () => {
  it.each([{ clockToleranceSeconds: 61 }, { clockToleranceSeconds: -1 }, { clockToleranceSeconds: 1.5 }])(
    'refuses a clock tolerance outside 0..60 s whole (%o)',
    (options) => {
      // Act
      const thrown = (() => {
        try {
          createVerifier({ issuer: ISSUER, ...options });
          return null;
        } catch (error) {
          return error;
        }
      })();

      // Assess
      expect((thrown as VerifierError).code).toBe('CONFIGURATION');
    },
  );

  it('refuses an issuer that is not an http(s) URL', () => {
    // Act
    const thrown = (() => {
      try {
        createVerifier({ issuer: 'auth.example.com' });
        return null;
      } catch (error) {
        return error;
      }
    })();

    // Assess
    expect((thrown as VerifierError).code).toBe('CONFIGURATION');
  });
});
