import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CODE_EMAILS_PER_HOUR, InputError, readInputs } from '../../lib/inputs.ts';

const read = (context: Record<string, unknown>) => readInputs(new App({ context }).node);

describe('CDK context inputs', () => {
  it('needs only senderEmail and defaults the rest', () => {
    expect(read({ senderEmail: 'no-reply@example.com' })).toEqual({
      serviceName: 'doorcode',
      senderEmail: 'no-reply@example.com',
      platformOrigins: [],
      logLevel: 'info',
      senderIdentity: 'create',
      maxCodeEmailsPerHour: DEFAULT_MAX_CODE_EMAILS_PER_HOUR,
    });
  });

  it('reads senderIdentity as create or existing', () => {
    expect(read({ senderEmail: 'a@example.com', senderIdentity: 'existing' }).senderIdentity).toBe(
      'existing',
    );
    expect(read({ senderEmail: 'a@example.com', senderIdentity: ' create ' }).senderIdentity).toBe('create');
    expect(() => read({ senderEmail: 'a@example.com', senderIdentity: 'imported' })).toThrow(
      /senderIdentity: "imported" is neither create .* nor existing/,
    );
  });

  it('reads maxCodeEmailsPerHour as a positive whole number, from a string or a number', () => {
    expect(read({ senderEmail: 'a@example.com', maxCodeEmailsPerHour: '250' }).maxCodeEmailsPerHour).toBe(
      250,
    );
    expect(read({ senderEmail: 'a@example.com', maxCodeEmailsPerHour: 20000 }).maxCodeEmailsPerHour).toBe(
      20000,
    );
    for (const bad of ['0', '-5', '1.5', 'lots', '10000000']) {
      expect(() => read({ senderEmail: 'a@example.com', maxCodeEmailsPerHour: bad })).toThrow(
        /maxCodeEmailsPerHour: a whole number from 1 to 9999999/,
      );
    }
  });

  it('names senderEmail when it is missing', () => {
    expect(() => read({})).toThrow(InputError);
    expect(() => read({})).toThrow(/senderEmail: missing/);
    expect(() => read({ senderEmail: ' ' })).toThrow(/senderEmail: missing/);
    expect(() => read({ senderEmail: 'not-an-address' })).toThrow(/senderEmail: "not-an-address"/);
  });

  it('applies the runtime rules to serviceName and logLevel', () => {
    expect(read({ senderEmail: 'a@example.com', serviceName: 'acme-auth', logLevel: 'debug' })).toMatchObject(
      {
        serviceName: 'acme-auth',
        logLevel: 'debug',
      },
    );
    expect(() => read({ senderEmail: 'a@example.com', serviceName: 'Acme' })).toThrow(/serviceName:/);
    expect(() => read({ senderEmail: 'a@example.com', logLevel: 'loud' })).toThrow(/logLevel:/);
  });

  it('reads platformOrigins as a comma-separated list or an array of origins', () => {
    const origins = ['https://app.example.com', 'http://localhost:5173'];
    expect(
      read({ senderEmail: 'a@example.com', platformOrigins: origins.join(' , ') }).platformOrigins,
    ).toEqual(origins);
    expect(read({ senderEmail: 'a@example.com', platformOrigins: origins }).platformOrigins).toEqual(origins);
    for (const notOrigin of [
      'https://app.example.com/login',
      'https://app.example.com//',
      'https://app.example.com/?x=1',
      'https://app.example.com#top',
      'https://user@app.example.com',
      'ftp://app.example.com',
      'app.example.com',
    ]) {
      expect(() => read({ senderEmail: 'a@example.com', platformOrigins: notOrigin }), notOrigin).toThrow(
        /platformOrigins: "/,
      );
    }
  });

  it('normalises a trailing slash and upper case away from platformOrigins, once per origin', () => {
    expect(
      read({
        senderEmail: 'a@example.com',
        platformOrigins: 'https://app.example.com/, HTTPS://App.Example.com, http://localhost:5173/',
      }).platformOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it('bin/app.ts prints an input error without a stack trace and exits 1', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: {
        ...process.env,
        CDK_CONTEXT_JSON: JSON.stringify({ platformOrigins: 'https://app.example.com/x' }),
      },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid CDK context:');
    expect(result.stderr).toContain('senderEmail: missing');
    expect(result.stderr).toContain('platformOrigins: "https://app.example.com/x"');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('InputError');
    expect(result.stdout).toBe('');
  });

  it('takes a domain only with its certificate', () => {
    const certificateArn =
      'arn:aws:acm:eu-west-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab';
    expect(read({ senderEmail: 'a@example.com', domain: 'Auth.Example.com', certificateArn })).toMatchObject({
      domain: 'auth.example.com',
      certificateArn,
    });
    expect(() => read({ senderEmail: 'a@example.com', domain: 'auth.example.com' })).toThrow(
      /certificateArn: required/,
    );
    expect(() => read({ senderEmail: 'a@example.com', certificateArn })).toThrow(
      /certificateArn: only used with domain/,
    );
    expect(() =>
      read({ senderEmail: 'a@example.com', domain: 'https://auth.example.com', certificateArn }),
    ).toThrow(/domain:/);
  });

  it('takes an optional alarmTopicArn of a standard SNS topic', () => {
    const alarmTopicArn = 'arn:aws:sns:eu-west-1:123456789012:doorcode-ops';
    expect(read({ senderEmail: 'a@example.com', alarmTopicArn: ` ${alarmTopicArn} ` }).alarmTopicArn).toBe(
      alarmTopicArn,
    );
    expect(read({ senderEmail: 'a@example.com' })).not.toHaveProperty('alarmTopicArn');
    for (const wrong of [
      'doorcode-ops',
      'arn:aws:sqs:eu-west-1:123456789012:doorcode-ops',
      'arn:aws:sns:eu-west-1:123456789012:doorcode-ops.fifo',
      'arn:aws:sns:eu-west-1:1234:doorcode-ops',
    ]) {
      expect(() => read({ senderEmail: 'a@example.com', alarmTopicArn: wrong })).toThrow(/alarmTopicArn:/);
    }
  });

  it('lists every problem at once', () => {
    const error = (() => {
      try {
        read({ serviceName: 'X', logLevel: 'loud' });
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error?.message).toMatch(/serviceName:[\s\S]*senderEmail:[\s\S]*logLevel:/);
  });
});

describe('signingKeys context', () => {
  const base = { senderEmail: 'a@example.com' };

  it('is absent by default (one key, generation "1")', () => {
    expect(read(base).signingKeys).toBeUndefined();
  });

  it('reads JSON text or an array, normalising the times', () => {
    const generations = [
      { id: '1', notAfter: '2027-05-10T12:00:00+02:00' },
      { id: '2027-05', notBefore: '2027-05-10T10:00:00Z' },
    ];
    const expected = [
      { id: '1', notAfter: '2027-05-10T10:00:00.000Z' },
      { id: '2027-05', notBefore: '2027-05-10T10:00:00.000Z' },
    ];
    expect(read({ ...base, signingKeys: JSON.stringify(generations) }).signingKeys).toEqual(expected);
    expect(read({ ...base, signingKeys: generations }).signingKeys).toEqual(expected);
  });

  it.each([
    ['not json', /signingKeys: not JSON/],
    ['[]', /non-empty JSON array/],
    ['[{"id":"A"}]', /id "A" must be/],
    ['[{"id":"1"},{"id":"1"}]', /"1" is declared twice/],
    ['[{"id":"1","notBefore":"tomorrow"}]', /1.notBefore "tomorrow" is not an ISO 8601 time/],
    // A time without an offset is another instant on each synth machine's time zone.
    [
      '[{"id":"1","notBefore":"2030-01-01T12:00:00"}]',
      /1.notBefore "2030-01-01T12:00:00" is not an ISO 8601 time with an offset/,
    ],
    // Which of two unbounded generations signs would depend on their order.
    [
      '[{"id":"2"},{"id":"1","notAfter":"2027-01-01T00:00:00Z"}]',
      /only the earliest generation may leave out notBefore, not 2, 1/,
    ],
    [
      '[{"id":"1","notBefore":"2027-01-02T00:00:00Z","notAfter":"2027-01-01T00:00:00Z"},{"id":"2"}]',
      /1.notAfter must be later/,
    ],
    ['[{"id":"1","notAfter":"2027-01-01T00:00:00Z"}]', /exactly one generation must have no notAfter/],
    [
      '[{"id":"1"},{"id":"2","notBefore":"2027-01-01T00:00:00Z"}]',
      /exactly one generation must have no notAfter .*, not 2$/,
    ],
    [
      '[{"id":"1","notAfter":"2027-01-01T00:00:00Z"},{"id":"2","notBefore":"2027-01-02T00:00:00Z"}]',
      /no generation signs when 1 stops at 2027-01-01T00:00:00.000Z/,
    ],
  ])('refuses %s', (signingKeys, message) => {
    expect(() => read({ ...base, signingKeys })).toThrow(message);
  });
});
