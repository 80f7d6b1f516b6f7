import {
  GetSuppressedDestinationCommand,
  NotFoundException,
  SESv2Client,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { MailUnavailableError } from '../../shared/mail/mailer.ts';
import { SesMailer } from '../../shared/mail/ses-mailer.ts';

const ses = mockClient(SESv2Client);
afterEach(() => ses.reset());

const mailer = () => new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@doorcode.test');
const message = { to: 'ada@example.test', text: 'Your code', html: '<p>Your code</p>' };

describe('SesMailer', () => {
  it('sends every subject on one line, whatever the caller passed (RFC 5322 §2.2)', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });

    await mailer().send({ ...message, subject: 'Sign in to Acme\r\nBcc: attacker@evil.test\n' });

    const [call] = ses.commandCalls(SendEmailCommand);
    const subject = call?.args[0].input.Content?.Simple?.Subject;
    expect(subject).toEqual({ Data: 'Sign in to Acme Bcc: attacker@evil.test', Charset: 'UTF-8' });
    expect(subject?.Data).not.toMatch(/[\r\n]/);
  });

  it('reports a refusal of the provider as MailUnavailableError', async () => {
    ses.on(SendEmailCommand).rejects(new Error('throttled'));

    await expect(mailer().send({ ...message, subject: 'Sign in' })).rejects.toBeInstanceOf(
      MailUnavailableError,
    );
  });

  it('names the configuration set in every send, so its suppression and events apply', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const withSet = new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@doorcode.test', {
      configurationSet: 'doorcode-mail',
    });

    await withSet.send({ ...message, subject: 'Sign in' });

    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.ConfigurationSetName).toBe('doorcode-mail');
  });

  describe('isSuppressed (SES accepts mail to a suppressed address and drops it, so it asks the list)', () => {
    it('is true when the account-level list holds the address', async () => {
      ses.on(GetSuppressedDestinationCommand, { EmailAddress: 'gone@example.test' }).resolves({
        SuppressedDestination: {
          EmailAddress: 'gone@example.test',
          Reason: 'BOUNCE',
          LastUpdateTime: new Date(),
        },
      });

      expect(await mailer().isSuppressed('gone@example.test')).toBe(true);
    });

    it('is false when SES answers NotFoundException', async () => {
      ses
        .on(GetSuppressedDestinationCommand)
        .rejects(new NotFoundException({ message: 'not on the list', $metadata: {} }));

      expect(await mailer().isSuppressed('ada@example.test')).toBe(false);
    });

    it('reports any other failure as MailUnavailableError', async () => {
      ses.on(GetSuppressedDestinationCommand).rejects(new Error('throttled'));

      await expect(mailer().isSuppressed('ada@example.test')).rejects.toBeInstanceOf(MailUnavailableError);
    });

    it('asks nothing when there is no list (the local emulator has none)', async () => {
      const local = new SesMailer(new SESv2Client({ region: 'us-east-1' }), 'no-reply@doorcode.test', {
        suppressionList: false,
      });

      expect(await local.isSuppressed('ada@example.test')).toBe(false);
      expect(ses.commandCalls(GetSuppressedDestinationCommand)).toHaveLength(0);
    });
  });
});
