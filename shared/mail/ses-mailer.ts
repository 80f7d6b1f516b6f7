import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Config } from '../config.ts';
import { type Mailer, type MailMessage, MailUnavailableError } from './mailer.ts';
import { oneLine } from './plain-text.ts';

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export class SesMailer implements Mailer {
  constructor(
    private readonly ses: SESv2Client,
    private readonly from: string,
  ) {}

  async send({ to, subject, text, html }: MailMessage): Promise<void> {
    try {
      await this.ses.send(
        new SendEmailCommand({
          FromEmailAddress: this.from,
          Destination: { ToAddresses: [to] },
          Content: {
            Simple: {
              // RFC 5322 §2.2: a line break would end the Subject field; no caller's subject has one.
              Subject: { Data: oneLine(subject), Charset: 'UTF-8' },
              Body: { Text: { Data: text, Charset: 'UTF-8' }, Html: { Data: html, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    } catch (error) {
      throw new MailUnavailableError('The email provider did not accept the message', { cause: error });
    }
  }
}

/** SES in the configured region, or the SES emulator when `SES_ENDPOINT` is set (local mode). */
export function sesMailerFrom(config: Config): Mailer {
  const client = new SESv2Client({
    region: config.AWS_REGION,
    maxAttempts: 2,
    ...(config.SES_ENDPOINT ? { endpoint: config.SES_ENDPOINT, credentials: localCredentials } : {}),
  });
  return new SesMailer(client, config.MAIL_FROM);
}
