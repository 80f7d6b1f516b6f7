import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LAMBDA_MEMORY_MB,
  DEFAULT_LOG_RETENTION_DAYS,
  DEFAULT_MAX_CODE_EMAILS_PER_HOUR,
  InputError,
  LOG_RETENTION_DAYS,
  readInputs,
} from '../../lib/inputs.ts';
import { synthDefault, synthDoorcode, variablesOf } from './synth.ts';

const read = (context: Record<string, unknown>) => readInputs(new App({ context }).node);

describe('CDK context inputs', () => {
  it('needs only senderEmail and defaults the rest', () => {
    expect(read({ senderEmail: 'no-reply@example.com' })).toEqual({
      serviceName: 'doorcode',
      senderEmail: 'no-reply@example.com',
      platformOrigins: [],
      logLevel: 'info',
      senderIdentity: 'create',
      senderVerification: 'address',
      maxCodeEmailsPerHour: DEFAULT_MAX_CODE_EMAILS_PER_HOUR,
      logRetentionDays: 30,
      lambdaMemoryMb: 256,
      terminationProtection: true,
      tags: {},
      dashboard: false,
      tracing: false,
    });
    expect([DEFAULT_LOG_RETENTION_DAYS, DEFAULT_LAMBDA_MEMORY_MB]).toEqual([30, 256]);
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

  it('reads auditRetentionDays as a whole number of days, and gives every function the setting', () => {
    expect(read({ senderEmail: 'a@example.com' })).not.toHaveProperty('auditRetentionDays');
    expect(read({ senderEmail: 'a@example.com', auditRetentionDays: '400' }).auditRetentionDays).toBe(400);
    for (const bad of ['0', '-1', '1.5', 'forever', '100000']) {
      expect(() => read({ senderEmail: 'a@example.com', auditRetentionDays: bad })).toThrow(
        /auditRetentionDays: ".*" is not a whole number of days from 1 to 99999/,
      );
    }
    const kept = synthDefault();
    const expiring = synthDoorcode({ auditRetentionDays: 400 });
    const variables = (synth: ReturnType<typeof synthDoorcode>) =>
      variablesOf(
        synth.template.toJSON().Resources[
          synth.logicalId(synth.routeFunction('updateOrganization').function)
        ],
      );
    expect(variables(kept)).not.toHaveProperty('AUDIT_RETENTION_DAYS');
    expect(variables(expiring).AUDIT_RETENTION_DAYS).toBe('400');
    // One synth of its own and perhaps the worker's first default one: 3 to 4 s each on two cores,
    // past 15 s each when other runs load them.
  }, 60_000);

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
      /exactly one generation must have no notAfter .*, not 2/,
    ],
    // A later-listed generation without notBefore would sign from the deploy, before verifiers know it.
    [
      '[{"id":"1","notBefore":"2027-01-01T00:00:00Z","notAfter":"2027-06-01T00:00:00Z"},{"id":"2"}]',
      /generation 2 has no notBefore, so it must be the earliest and end \(notAfter\) before 1 start/,
    ],
    [
      '[{"id":"1","notAfter":"2027-01-01T00:00:00Z"},{"id":"2","notBefore":"2027-01-02T00:00:00Z"}]',
      /no generation signs when 1 stops at 2027-01-01T00:00:00.000Z/,
    ],
  ])('refuses %s', (signingKeys, message) => {
    expect(() => read({ ...base, signingKeys })).toThrow(message);
  });
});

describe('operational settings context', () => {
  const base = { senderEmail: 'a@example.com' };

  it('refuses logLevel silent, which would drop the metric lines the alarms read', () => {
    expect(() => read({ ...base, logLevel: 'silent' })).toThrow(/logLevel: "silent" is a local setting/);
    expect(read({ ...base, logLevel: 'error' }).logLevel).toBe('error');
  });

  it('takes logRetentionDays only among the retentions CloudWatch Logs allows', () => {
    for (const days of LOG_RETENTION_DAYS) {
      expect(read({ ...base, logRetentionDays: String(days) }).logRetentionDays).toBe(days);
    }
    expect(read({ ...base, logRetentionDays: 365 }).logRetentionDays).toBe(365);
    expect(LOG_RETENTION_DAYS).toHaveLength(22);
    for (const wrong of ['0', '2', '31', '366', '3654', '9999', 'month', '-1', '30.0']) {
      expect(() => read({ ...base, logRetentionDays: wrong }), wrong).toThrow(
        /logRetentionDays: ".*" is not a retention CloudWatch Logs allows \(1, 3, 5, 7, 14, 30, 60/,
      );
    }
  });

  it('takes lambdaMemoryMb from 128 to 10240 and reservedConcurrency from 1, absent by default', () => {
    expect(read({ ...base, lambdaMemoryMb: '1024' }).lambdaMemoryMb).toBe(1024);
    expect(read({ ...base, lambdaMemoryMb: 128 }).lambdaMemoryMb).toBe(128);
    expect(read({ ...base, lambdaMemoryMb: '10240' }).lambdaMemoryMb).toBe(10240);
    for (const wrong of ['127', '10241', '512MB', '1.5', '-256']) {
      expect(() => read({ ...base, lambdaMemoryMb: wrong }), wrong).toThrow(
        /lambdaMemoryMb: ".*" is not a whole number from 128 to 10240/,
      );
    }
    expect(read(base)).not.toHaveProperty('reservedConcurrency');
    expect(read({ ...base, reservedConcurrency: '20' }).reservedConcurrency).toBe(20);
    for (const wrong of ['0', '-1', 'some', '10001']) {
      expect(() => read({ ...base, reservedConcurrency: wrong }), wrong).toThrow(
        /reservedConcurrency: ".*" is not a whole number from 1 to 10000/,
      );
    }
  });

  it('keeps terminationProtection on unless it is false', () => {
    expect(read(base).terminationProtection).toBe(true);
    expect(read({ ...base, terminationProtection: 'false' }).terminationProtection).toBe(false);
    expect(read({ ...base, terminationProtection: false }).terminationProtection).toBe(false);
    expect(read({ ...base, terminationProtection: 'TRUE' }).terminationProtection).toBe(true);
    expect(() => read({ ...base, terminationProtection: 'no' })).toThrow(
      /terminationProtection: "no" is neither true nor false/,
    );
  });

  it('reads tags as a JSON object of strings, as text or an object', () => {
    const tags = { team: 'identity', 'cost-center': '1234', 'app:tier': 'auth @ prod', empty: '' };
    expect(read({ ...base, tags: JSON.stringify(tags) }).tags).toEqual(tags);
    expect(read({ ...base, tags }).tags).toEqual(tags);
    expect(read({ ...base, tags: '' }).tags).toEqual({});
  });

  it.each([
    ['team=identity', /tags: not JSON/],
    ['["team"]', /tags: expected a JSON object/],
    ['"identity"', /tags: expected a JSON object/],
    ['{"team":1}', /the value of "team" must be a string/],
    ['{"aws:team":"x"}', /"aws:team" uses the aws: prefix/],
    ['{"AWS:team":"x"}', /"AWS:team" uses the aws: prefix/],
    ['{"":"x"}', /tags: "" is not a tag key/],
    [JSON.stringify({ ['k'.repeat(129)]: 'x' }), /is not a tag key/],
    ['{"team":"a;b"}', /the value of "team" is not a tag value/],
    [JSON.stringify({ team: 'v'.repeat(257) }), /the value of "team" is not a tag value/],
    [
      JSON.stringify(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'x']))),
      /51 tags; a resource holds at most 50/,
    ],
  ])('refuses tags %s', (tags, message) => {
    expect(() => read({ ...base, tags })).toThrow(message);
  });

  const streamArn = 'arn:aws:dynamodb:eu-west-1:123456789012:table/restored/stream/2026-11-27T00:00:00.000';

  it('takes tableName as a DynamoDB table name, absent by default, with its stream', () => {
    expect(read(base)).not.toHaveProperty('tableName');
    const restoredStream = streamArn.replace('table/restored/', 'table/doorcode-restored_2026.11/');
    expect(
      read({ ...base, tableName: ' doorcode-restored_2026.11 ', tableStreamArn: restoredStream }).tableName,
    ).toBe('doorcode-restored_2026.11');
    for (const wrong of [
      'ab',
      'my table',
      'arn:aws:dynamodb:eu-west-1:123456789012:table/t',
      'x'.repeat(256),
    ]) {
      expect(() => read({ ...base, tableName: wrong, tableStreamArn: streamArn }), wrong).toThrow(
        /tableName: ".*" is not a DynamoDB table name/,
      );
    }
  });

  it('refuses tableName without the stream the statistics aggregator reads, and a stream without it', () => {
    expect(() => read({ ...base, tableName: 'restored' })).toThrow(/tableStreamArn: missing/);
    expect(() => read({ ...base, tableStreamArn: streamArn })).toThrow(/tableStreamArn: only with tableName/);
    expect(() => read({ ...base, tableName: 'restored', tableStreamArn: 'stream' })).toThrow(
      /tableStreamArn: "stream" is not the ARN of a DynamoDB stream/,
    );
    expect(read({ ...base, tableName: 'restored', tableStreamArn: streamArn }).tableStreamArn).toBe(
      streamArn,
    );
    // The retained table's stream, pasted by mistake: it would count nothing and page no one.
    expect(() => read({ ...base, tableName: 'restored-2', tableStreamArn: streamArn })).toThrow(
      /tableStreamArn: the stream of table restored, not of tableName restored-2/,
    );
    const china = 'arn:aws-cn:dynamodb:cn-north-1:123456789012:table/restored/stream/2026-11-27T09:30:00.123';
    expect(read({ ...base, tableName: 'restored', tableStreamArn: china }).tableStreamArn).toBe(china);
  });
});

describe('senderVerification context', () => {
  const base = { senderEmail: 'a@example.com' };
  it('follows the API domain unless given, and is separate from it', () => {
    const domain = {
      domain: 'auth.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab',
    };
    expect(read(base).senderVerification).toBe('address');
    expect(read({ ...base, ...domain }).senderVerification).toBe('domain');
    expect(read({ ...base, ...domain, senderVerification: 'address' }).senderVerification).toBe('address');
    expect(read({ ...base, senderVerification: 'domain' }).senderVerification).toBe('domain');
    expect(() => read({ ...base, senderVerification: 'dkim' })).toThrow(
      /senderVerification: "dkim" is neither/,
    );
  });

  it('verifies the sender domain without any API domain', () => {
    const { template } = synthDoorcode({ senderVerification: 'domain' });
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'example.com' });
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
  });
});

describe('OAuth client metadata settings', () => {
  it('never lets a deployed function fetch a metadata document from loopback or trust an extra CA', () => {
    // Prepare: every input that changes the functions' environment
    const { resources } = synthDoorcode({ logLevel: 'debug', maxCodeEmailsPerHour: 50 });
    const functions = Object.values(resources).filter(
      (resource) =>
        resource.Type === 'AWS::Lambda::Function' && resource.Properties.Environment !== undefined,
    );

    // Act
    const names = functions.flatMap((fn) => Object.keys(variablesOf(fn)));

    // Assess
    expect(functions.length).toBeGreaterThan(10);
    expect(names).toContain('ISSUER');
    expect(names.filter((name) => name.startsWith('OAUTH_METADATA_'))).toEqual([]);
  });
});
