import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../shared/config.ts';

const valid = {
  TABLE_NAME: 'doorcode',
  ISSUER: 'https://auth.example.com',
  MAIL_FROM: 'no-reply@example.com',
};

describe('loadConfig', () => {
  it('applies defaults', () => {
    expect(loadConfig(valid)).toMatchObject({
      SERVICE_NAME: 'doorcode',
      KMS_KEY_IDS: [],
      PLATFORM_ORIGINS: [],
    });
  });

  it('names every missing setting', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({})).toThrow(/TABLE_NAME.*ISSUER.*MAIL_FROM/);
  });

  it('names a wrong setting', () => {
    expect(() => loadConfig({ ...valid, ISSUER: 'not a url' })).toThrow(/ISSUER/);
    expect(() => loadConfig({ ...valid, SERVICE_NAME: 'Bad Name' })).toThrow(/SERVICE_NAME/);
  });

  it('splits comma-separated lists', () => {
    expect(loadConfig({ ...valid, KMS_KEY_IDS: 'a, b,,c' }).KMS_KEY_IDS).toEqual(['a', 'b', 'c']);
  });

  it('refuses both a KMS key and a local key file', () => {
    expect(() => loadConfig({ ...valid, KMS_KEY_IDS: 'a', LOCAL_SIGNING_KEY_FILE: '/tmp/k.pem' })).toThrow(
      /KMS_KEY_IDS/,
    );
  });

  it('reads SIGNING_KEYS as JSON generations with ISO 8601 windows', () => {
    const keys = [
      { keyId: 'arn:aws:kms:eu-west-1:123456789012:key/a', notAfter: '2027-05-10T12:00:00.000Z' },
      { keyId: 'arn:aws:kms:eu-west-1:123456789012:key/b', notBefore: '2027-05-10T12:00:00.000Z' },
    ];
    expect(loadConfig({ ...valid, SIGNING_KEYS: JSON.stringify(keys) }).SIGNING_KEYS).toEqual(keys);
    expect(loadConfig(valid).SIGNING_KEYS).toEqual([]);
    expect(() => loadConfig({ ...valid, SIGNING_KEYS: '[{' })).toThrow(/SIGNING_KEYS: not JSON/);
    expect(() => loadConfig({ ...valid, SIGNING_KEYS: '[{"keyId":"a","notBefore":"soon"}]' })).toThrow(
      /SIGNING_KEYS/,
    );
    expect(() =>
      loadConfig({ ...valid, SIGNING_KEYS: '[{"keyId":"a"}]', LOCAL_SIGNING_KEY_FILE: '/tmp/k.pem' }),
    ).toThrow(/one of SIGNING_KEYS, KMS_KEY_IDS and LOCAL_SIGNING_KEY_FILE/);
  });

  it('refuses both a code-key secret and a local code-key file', () => {
    expect(() =>
      loadConfig({
        ...valid,
        CODE_KEY_SECRET_ARN: 'arn:aws:secretsmanager:x',
        LOCAL_CODE_KEY_FILE: '/tmp/k',
      }),
    ).toThrow(/CODE_KEY_SECRET_ARN/);
  });

  it('reads OAUTH_METADATA_ALLOW_LOOPBACK as true or false, false by default', () => {
    expect(loadConfig(valid).OAUTH_METADATA_ALLOW_LOOPBACK).toBe(false);
    expect(
      loadConfig({ ...valid, OAUTH_METADATA_ALLOW_LOOPBACK: 'true' }).OAUTH_METADATA_ALLOW_LOOPBACK,
    ).toBe(true);
    expect(
      loadConfig({ ...valid, OAUTH_METADATA_ALLOW_LOOPBACK: 'false' }).OAUTH_METADATA_ALLOW_LOOPBACK,
    ).toBe(false);
    expect(() => loadConfig({ ...valid, OAUTH_METADATA_ALLOW_LOOPBACK: 'yes' })).toThrow(
      /OAUTH_METADATA_ALLOW_LOOPBACK/,
    );
  });
});
