import { constants, createHash, privateEncrypt } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { KmsSigner } from '../../shared/crypto/kms-signer.ts';
import { testKeyPair } from '../support/keys.ts';

// DER prefix of the DigestInfo for SHA-256 (RFC 8017 §9.2 note 1): what KMS wraps a DIGEST in.
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

const kms = mockClient(KMSClient);
afterEach(() => kms.reset());

/** A KMS stand-in that signs with a real RSA private key, exactly as KMS does for MessageType DIGEST. */
function fakeKms() {
  const { privateKey, publicKey } = testKeyPair();
  kms.on(GetPublicKeyCommand).resolves({
    KeyUsage: 'SIGN_VERIFY',
    KeySpec: 'RSA_2048',
    SigningAlgorithms: ['RSASSA_PKCS1_V1_5_SHA_256'],
    PublicKey: publicKey.export({ format: 'der', type: 'spki' }),
  });
  kms.on(SignCommand).callsFake((input: { Message: Uint8Array }) => ({
    Signature: privateEncrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(input.Message)]),
    ),
  }));
}

describe('KmsSigner', () => {
  it('signs a JWT that verifies with jose against its published JWKS', async () => {
    fakeKms();
    const signer = new KmsSigner(new KMSClient({ region: 'us-east-1' }), ['alias/doorcode-signing']);
    const token = await signJwt(signer, { iss: 'https://auth.example', sub: 'usr_1' });
    const jwks = { keys: await signer.publicKeys() };
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
      algorithms: ['RS256'],
    });
    expect(payload).toMatchObject({ iss: 'https://auth.example', sub: 'usr_1' });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: jwks.keys[0]?.kid });
  });

  it('sends KMS only the SHA-256 digest, with MessageType DIGEST and RSASSA_PKCS1_V1_5_SHA_256', async () => {
    fakeKms();
    const signer = new KmsSigner(new KMSClient({ region: 'us-east-1' }), ['key-1']);
    const input = Buffer.from('header.payload');
    await signer.sign(input);
    const [call] = kms.commandCalls(SignCommand);
    expect(call?.args[0].input).toEqual({
      KeyId: 'key-1',
      Message: createHash('sha256').update(input).digest(),
      MessageType: 'DIGEST',
      SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256',
    });
  });

  it('fetches the public keys once per container and lists every key, active first', async () => {
    fakeKms();
    const signer = new KmsSigner(new KMSClient({ region: 'us-east-1' }), ['active', 'previous']);
    await signer.publicKeys();
    await signer.publicKeys();
    const calls = kms.commandCalls(GetPublicKeyCommand);
    expect(calls.map((c) => c.args[0].input.KeyId)).toEqual(['active', 'previous']);
  });

  it('refuses a key that cannot sign RS256', async () => {
    kms.on(GetPublicKeyCommand).resolves({
      KeyUsage: 'ENCRYPT_DECRYPT',
      PublicKey: testKeyPair().publicKey.export({ format: 'der', type: 'spki' }),
    });
    const signer = new KmsSigner(new KMSClient({ region: 'us-east-1' }), ['wrong']);
    await expect(signer.publicKeys()).rejects.toThrow(/cannot sign/);
  });
});
