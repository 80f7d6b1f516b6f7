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
    expect(() => read({ senderEmail: 'a@example.com', platformOrigins: 'https://app.example.com/' })).toThrow(
      /platformOrigins: "https:\/\/app.example.com\/"/,
    );
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
