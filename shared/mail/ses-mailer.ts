import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { type Mailer, type MailMessage, MailUnavailableError } from './mailer.ts';
import { oneLine } from './plain-text.ts';

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
