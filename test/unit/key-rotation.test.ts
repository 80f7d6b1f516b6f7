import { constants, generateKeyPairSync, type KeyObject, privateEncrypt } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { decodeProtectedHeader } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from '../../shared/crypto/jwt.ts';
import { RETAINED_AFTER_SIGNING_MS } from '../../shared/crypto/key-schedule.ts';
import { KmsSigner } from '../../shared/crypto/kms-signer.ts';
import { toPublicJwk } from '../../shared/crypto/public-jwk.ts';
import { SESSION_TTL_SECONDS } from '../../shared/identity/session-token.ts';

// DER prefix of the DigestInfo for SHA-256 (RFC 8017 §9.2 note 1): what KMS wraps a DIGEST in.
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ISSUER = 'https://auth.example';

const kms = mockClient(KMSClient);
afterEach(() => kms.reset());

/** Two real RSA keys, `old` and `new`, as KMS would hold them. */
const pairs: Record<string, { privateKey: KeyObject; publicKey: KeyObject }> = {};
const kids: Record<string, string> = {};
beforeAll(async () => {
  for (const keyId of ['old', 'new']) {
    pairs[keyId] = generateKeyPairSync('rsa', { modulusLength: 2048 });
    kids[keyId] = (await toPublicJwk(pairs[keyId].publicKey)).kid;
  }
});

/** A KMS stand-in that answers per KeyId and signs digests with the real private key, as KMS does. */
function fakeKms() {
  for (const [keyId, { publicKey }] of Object.entries(pairs)) {
    kms.on(GetPublicKeyCommand, { KeyId: keyId }).resolves({
      KeyUsage: 'SIGN_VERIFY',
      KeySpec: 'RSA_2048',
      SigningAlgorithms: ['RSASSA_PKCS1_V1_5_SHA_256'],
      PublicKey: publicKey.export({ format: 'der', type: 'spki' }),
    });
  }
  kms.on(SignCommand).callsFake((input: { KeyId: string; Message: Uint8Array }) => ({
    Signature: privateEncrypt(
      { key: pairs[input.KeyId]!.privateKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(input.Message)]),
    ),
  }));
}

// The runbook's timeline: `new` is deployed at `added`, signs from `switchAt` (more than the
// JWKS cache hour later); `old` stops signing then and stays published for the session lifetime.
const added = Date.parse('2027-05-10T09:00:00Z');
const switchAt = added + 3 * HOUR;
const generations = [
  { keyId: 'old', notAfter: switchAt },
  { keyId: 'new', notBefore: switchAt },
];

function rotatingSigner() {
  fakeKms();
  const clock = {
    time: added,
    now() {
      return this.time;
    },
  };
  const signer = new KmsSigner(new KMSClient({ region: 'eu-west-1' }), generations, clock);
  const at = (time: number) => {
    clock.time = time;
    return signer;
  };
  return { signer, clock, at };
}
const kidsOf = async (signer: KmsSigner) => (await signer.publicKeys()).map((key) => key.kid);
const issue = (signer: KmsSigner, iat: number) =>
  signJwt(signer, { iss: ISSUER, sub: 'usr_1', iat: iat / 1000, exp: iat / 1000 + SESSION_TTL_SECONDS });

describe('signing key rotation (injected clock)', () => {
  it('keeps a generation published exactly as long as a session lives', () => {
    expect(RETAINED_AFTER_SIGNING_MS).toBe(SESSION_TTL_SECONDS * 1000);
  });

  it('publishes the next key after the active one before the switch, then the new key first', async () => {
    const { at } = rotatingSigner();
    expect(await kidsOf(at(added))).toEqual([kids.old, kids.new]);
    expect(await kidsOf(at(switchAt - 1))).toEqual([kids.old, kids.new]);
    expect(await kidsOf(at(switchAt))).toEqual([kids.new, kids.old]);
    expect(await kidsOf(at(switchAt + RETAINED_AFTER_SIGNING_MS - 1))).toEqual([kids.new, kids.old]);
    expect(await kidsOf(at(switchAt + RETAINED_AFTER_SIGNING_MS))).toEqual([kids.new]);
  });

  it('switches the kid of new tokens at the switch time, each signed by the key it names', async () => {
    const { at } = rotatingSigner();
    const before = await issue(at(switchAt - 1), switchAt - 1);
    const after = await issue(at(switchAt), switchAt);
    expect(decodeProtectedHeader(before).kid).toBe(kids.old);
    expect(decodeProtectedHeader(after).kid).toBe(kids.new);
    expect(kms.commandCalls(SignCommand).map((call) => call.args[0].input.KeyId)).toEqual(['old', 'new']);
    const signer = at(switchAt + HOUR);
    expect(
      await verifyJwt(signer, before, { issuer: ISSUER, clock: { now: () => switchAt + HOUR } }),
    ).not.toBeNull();
    expect(
      await verifyJwt(signer, after, { issuer: ISSUER, clock: { now: () => switchAt + HOUR } }),
    ).not.toBeNull();
  });

  it('verifies an old-key token during the overlap and refuses it once the key leaves the JWKS', async () => {
    const { at } = rotatingSigner();
    const issuedAt = switchAt - 1;
    // A token without exp: only the key's presence in the JWKS decides.
    const token = await signJwt(at(issuedAt), { iss: ISSUER, sub: 'usr_1', iat: issuedAt / 1000 });
    const verifyAt = (time: number) =>
      verifyJwt(at(time), token, { issuer: ISSUER, clock: { now: () => time } });
    expect(await verifyAt(switchAt + 6 * DAY)).toMatchObject({ sub: 'usr_1' });
    expect(await verifyAt(switchAt + RETAINED_AFTER_SIGNING_MS - 1)).toMatchObject({ sub: 'usr_1' });
    expect(await verifyAt(switchAt + RETAINED_AFTER_SIGNING_MS)).toBeNull();
  });

  it('signs with the key its header names even if the switch falls between activeKey and sign', async () => {
    const { at } = rotatingSigner();
    const { kid } = await at(switchAt - 1).activeKey();
    await at(switchAt).sign(Buffer.from('header.payload'), kid);
    expect(kms.commandCalls(SignCommand)[0]?.args[0].input.KeyId).toBe('old');
  });

  it('fetches each public key once, and never a key that has left the JWKS', async () => {
    const { at } = rotatingSigner();
    const late = switchAt + RETAINED_AFTER_SIGNING_MS;
    await kidsOf(at(late));
    await kidsOf(at(late + DAY));
    expect(kms.commandCalls(GetPublicKeyCommand).map((call) => call.args[0].input.KeyId)).toEqual(['new']);
  });

  it('returns the same JWKS array while the selection is unchanged (verifyJwt caches its key set by it)', async () => {
    const { at } = rotatingSigner();
    const first = await at(added).publicKeys();
    expect(await at(added + HOUR).publicKeys()).toBe(first);
    expect(await at(switchAt).publicKeys()).not.toBe(first);
  });

  it('refuses to sign when no generation signs at the time', async () => {
    fakeKms();
    const signer = new KmsSigner(
      new KMSClient({ region: 'eu-west-1' }),
      [{ keyId: 'new', notBefore: switchAt }],
      {
        now: () => added,
      },
    );
    await expect(signer.activeKey()).rejects.toThrow(
      /No signing key generation signs at 2027-05-10T09:00:00.000Z/,
    );
    expect(await kidsOf(signer)).toEqual([kids.new]);
  });
});
