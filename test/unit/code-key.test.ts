import { createHmac } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { localCodeHasher } from '../../shared/crypto/local-code-key.ts';
import { secretsManagerCodeHasher } from '../../shared/crypto/secrets-manager-code-key.ts';
import { privateDir } from '../../shared/local/private-dir.ts';

const KEY = '0123456789abcdef'.repeat(4);
const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:code-key-AbCdEf';
const hmac = (key: string, message: string) =>
  createHmac('sha256', Buffer.from(key, 'hex')).update(message).digest('hex');

const secrets = mockClient(SecretsManagerClient);
afterEach(() => secrets.reset());

const work = mkdtempSync(join(tmpdir(), 'doorcode-code-key-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the Secrets Manager code key', () => {
  it('reads the secret once per container, however many codes it hashes', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: KEY });
    const hasher = secretsManagerCodeHasher(new SecretsManagerClient({ region: 'eu-west-1' }), SECRET_ARN);
    const hashes = await Promise.all(['A', 'B', 'C'].map((code) => hasher.hash('sir_1', code)));
    hashes.push(await hasher.hash('sir_2', 'D'));
    expect(hashes).toEqual([
      hmac(KEY, 'sir_1:A'),
      hmac(KEY, 'sir_1:B'),
      hmac(KEY, 'sir_1:C'),
      hmac(KEY, 'sir_2:D'),
    ]);
    expect(secrets.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input)).toEqual([
      { SecretId: SECRET_ARN },
    ]);
  });

  it('tries the read again on the next call after a failure', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: KEY });
    const hasher = secretsManagerCodeHasher(new SecretsManagerClient({ region: 'eu-west-1' }), SECRET_ARN);
    await expect(hasher.hash('sir_1', 'A')).rejects.toThrow('throttled');
    expect(await hasher.hash('sir_1', 'A')).toBe(hmac(KEY, 'sir_1:A'));
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret that is not 64 hex characters, rather than hash with a weaker key', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: 'short' });
    const hasher = secretsManagerCodeHasher(new SecretsManagerClient({ region: 'eu-west-1' }), SECRET_ARN);
    await expect(hasher.hash('sir_1', 'A')).rejects.toThrow(/64 lower-case hex/);
  });
});

describe('the local code key (.data/code-hash-key)', () => {
  it('is created once, readable by its owner only, in a folder only its owner can open', async () => {
    const file = join(work, 'fresh', '.data', 'code-hash-key');
    const first = await localCodeHasher(file).hash('sir_1', 'A');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(join(work, 'fresh', '.data'))).toBe(0o700);
    expect(readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(await localCodeHasher(file).hash('sir_1', 'A')).toBe(first);
  });

  it('closes an existing data folder to its owner at start', () => {
    const folder = join(work, 'existing', '.data');
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o755);
    privateDir(folder);
    expect(modeOf(folder)).toBe(0o700);
  });
});
