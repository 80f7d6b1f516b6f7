import { createLocalJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { Clock } from '../clock.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { PublicJwk, Signer } from './signer.ts';

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact RS256 JWS whose signature comes from the `Signer` (KMS or local). */
export async function signJwt(signer: Signer, payload: JWTPayload, typ = 'JWT'): Promise<string> {
  const { kid } = await signer.activeKey();
  const signingInput = `${encode({ alg: 'RS256', typ, kid })}.${encode(payload)}`;
  const signature = await signer.sign(Buffer.from(signingInput, 'ascii'), kid);
  return `${signingInput}.${Buffer.from(signature).toString('base64url')}`;
}

/**
 * A token of the service signed through its Signer (one KMS `Sign` on AWS); a failure (Sign or
 * GetPublicKey) counts in `KmsSignErrors`, which lib/alarms.ts alarms on: every issuer signs here.
 */
export async function signToken(
  deps: { signer: Signer; metrics: Pick<Metrics, 'count'> },
  payload: JWTPayload,
  typ: string,
): Promise<string> {
  try {
    return await signJwt(deps.signer, payload, typ);
  } catch (error) {
    deps.metrics.count('KmsSignErrors');
    throw error;
  }
}

export interface VerifyOptions {
  issuer: string;
  audience?: string | string[];
  /** The header's `typ` the token must carry (RFC 8725 §3.11: explicit typing), if given. */
  typ?: string;
  clock: Clock;
}

// Signers return the same cached array until their keys change: build its key set once.
const keySets = new WeakMap<PublicJwk[], ReturnType<typeof createLocalJWKSet>>();
function keySetOf(keys: PublicJwk[]) {
  let set = keySets.get(keys);
  if (!set) {
    set = createLocalJWKSet({ keys });
    keySets.set(keys, set);
  }
  return set;
}

/**
 * Verifies an RS256 JWT against the signer's public keys (no network call once they are cached).
 * Only RS256 is accepted, so `none` and HS256-with-the-public-key tokens fail (RFC 8725 §3.1).
 * Returns null for any invalid token; callers answer 401.
 */
export async function verifyJwt(
  signer: Signer,
  token: string,
  options: VerifyOptions,
): Promise<JWTPayload | null> {
  if (token.length > 8192 || token.split('.').length !== 3) return null;
  const keys = await signer.publicKeys();
  if (keys.length === 0) return null;
  try {
    const { payload } = await jwtVerify(token, keySetOf(keys), {
      algorithms: ['RS256'],
      issuer: options.issuer,
      ...(options.audience === undefined ? {} : { audience: options.audience }),
      ...(options.typ === undefined ? {} : { typ: options.typ }),
      currentDate: new Date(options.clock.now()),
      clockTolerance: 0,
    });
    return payload;
  } catch {
    return null;
  }
}
