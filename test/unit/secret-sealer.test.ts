import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { KmsSecretSealer } from '../../shared/crypto/kms-secret-sealer.ts';
import { LocalSecretSealer } from '../../shared/crypto/local-secret-sealer.ts';
import { createDeps } from '../../shared/deps.ts';

const SECRET = 'GOCSPX-owner-client-secret';
const work = mkdtempSync(join(tmpdir(), 'doorcode-sealer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Flips one bit of the sealed bytes after the prefix. */
function tampered(sealed: string, prefix: string): string {
  const bytes = Buffer.from(sealed.slice(prefix.length), 'base64url');
  bytes[bytes.length - 20] = (bytes[bytes.length - 20] ?? 0) ^ 1;
  return prefix + bytes.toString('base64url');
}

describe('LocalSecretSealer (AES-256-GCM, AAD = application id)', () => {
  const sealer = new LocalSecretSealer(randomBytes(32));

  it('opens what it sealed for the same application, and never holds the plaintext', async () => {
    const sealed = await sealer.seal('app_1', SECRET);
    expect(sealed).toMatch(/^local\.v1\./);
    expect(sealed).not.toContain(SECRET);
    expect(Buffer.from(sealed.slice(9), 'base64url').toString('latin1')).not.toContain(SECRET);
    await expect(sealer.open('app_1', sealed)).resolves.toBe(SECRET);
  });

  it('seals the same secret differently each time (a random IV per seal)', async () => {
    expect(await sealer.seal('app_1', SECRET)).not.toBe(await sealer.seal('app_1', SECRET));
  });

  it('refuses to open a secret sealed for another application', async () => {
    const sealed = await sealer.seal('app_1', SECRET);
    await expect(sealer.open('app_2', sealed)).rejects.toThrow();
  });

  it('refuses a changed byte, a truncated blob, another key and a KMS blob', async () => {
    const sealed = await sealer.seal('app_1', SECRET);
    await expect(sealer.open('app_1', tampered(sealed, 'local.v1.'))).rejects.toThrow();
    await expect(sealer.open('app_1', sealed.slice(0, 20))).rejects.toThrow();
    await expect(new LocalSecretSealer(randomBytes(32)).open('app_1', sealed)).rejects.toThrow();
    await expect(sealer.open('app_1', `kms.v1.${sealed.slice(9)}`)).rejects.toThrow();
  });

  it('creates its key file once (0600) and reads the same key again', async () => {
    const file = join(work, 'keys', 'sealing-key');
    const sealed = await LocalSecretSealer.fromFile(file).seal('app_1', SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await expect(LocalSecretSealer.fromFile(file).open('app_1', sealed)).resolves.toBe(SECRET);
  });
});

describe('KmsSecretSealer', () => {
  const kms = mockClient(KMSClient);
  afterEach(() => kms.reset());
  const KEY = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

  it('encrypts with the key and the encryption context { applicationId }, and decrypts with both', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: new Uint8Array([1, 2, 3]) });
    kms.on(DecryptCommand).resolves({ Plaintext: new TextEncoder().encode(SECRET) });
    const sealer = new KmsSecretSealer(new KMSClient({ region: 'eu-west-1' }), KEY);
    const sealed = await sealer.seal('app_1', SECRET);
    expect(sealed).toBe(`kms.v1.${Buffer.from([1, 2, 3]).toString('base64url')}`);
    await expect(sealer.open('app_1', sealed)).resolves.toBe(SECRET);
    const encrypt = kms.commandCalls(EncryptCommand)[0]?.args[0].input;
    expect(encrypt?.KeyId).toBe(KEY);
    expect(encrypt?.EncryptionContext).toEqual({ applicationId: 'app_1' });
    expect(new TextDecoder().decode(encrypt?.Plaintext)).toBe(SECRET);
    const decrypt = kms.commandCalls(DecryptCommand)[0]?.args[0].input;
    expect(decrypt).toMatchObject({ KeyId: KEY, EncryptionContext: { applicationId: 'app_1' } });
    expect([...(decrypt?.CiphertextBlob ?? [])]).toEqual([1, 2, 3]);
  });

  it('does not send a locally sealed secret to KMS', async () => {
    const sealer = new KmsSecretSealer(new KMSClient({ region: 'eu-west-1' }), KEY);
    await expect(sealer.open('app_1', 'local.v1.AAAA')).rejects.toThrow();
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });
});

describe('the sealer a route may use', () => {
  const config = loadConfig({
    TABLE_NAME: 'doorcode-test',
    ISSUER: 'https://auth.example.com',
    MAIL_FROM: 'no-reply@example.com',
    LOCAL_SEALING_KEY_FILE: join(work, 'route-key'),
  });

  it("seals but cannot open with seal: 'encrypt', and opens but cannot seal with 'decrypt'", async () => {
    const writer = createDeps(config, {}, { seal: 'encrypt' }, 'PUT /configuration').sealer;
    const reader = createDeps(config, {}, { seal: 'decrypt' }, 'GET /social/callback').sealer;
    const sealed = await writer.seal('app_1', SECRET);
    await expect(writer.open('app_1', sealed)).rejects.toThrow(/declares no `seal: 'decrypt'`/);
    await expect(reader.open('app_1', sealed)).resolves.toBe(SECRET);
    await expect(reader.seal('app_1', SECRET)).rejects.toThrow(/declares no `seal: 'encrypt'`/);
  });

  it('neither seals nor opens without seal access', async () => {
    const none = createDeps(config, {}, { table: 'read' }, 'GET /x').sealer;
    await expect(none.seal('app_1', SECRET)).rejects.toThrow(/declares no/);
    await expect(none.open('app_1', 'local.v1.AAAA')).rejects.toThrow(/declares no/);
  });

  it('refuses both settings at once', () => {
    expect(() =>
      loadConfig({
        ...process.env,
        TABLE_NAME: 'ttt',
        ISSUER: 'https://a.example',
        MAIL_FROM: 'a@b.co',
        SEALING_KEY_ID: 'alias/x',
        LOCAL_SEALING_KEY_FILE: 'f',
      }),
    ).toThrow(/SEALING_KEY_ID/);
  });
});
