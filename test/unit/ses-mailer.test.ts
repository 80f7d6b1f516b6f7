import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
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
});
