import {
  GetSuppressedDestinationCommand,
  NotFoundException,
  SESv2Client,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import type { Config } from '../config.ts';
import { type Mailer, type MailMessage, MailUnavailableError } from './mailer.ts';
import { oneLine } from './plain-text.ts';

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface SesMailerOptions {
  /** The configuration set every message names (its suppression options and event destination). */
  configurationSet?: string;
  /**
   * Whether SES has a suppression list to ask. The local emulator has none (it answers
   * GetSuppressedDestination with a page of its web server), so local mode suppresses nothing.
   */
  suppressionList?: boolean;
}

export class SesMailer implements Mailer {
  constructor(
    private readonly ses: SESv2Client,
    private readonly from: string,
    private readonly options: SesMailerOptions = {},
  ) {}

  async send({ to, subject, text, html }: MailMessage): Promise<void> {
    try {
      await this.ses.send(
        new SendEmailCommand({
          FromEmailAddress: this.from,
          Destination: { ToAddresses: [to] },
          ...(this.options.configurationSet ? { ConfigurationSetName: this.options.configurationSet } : {}),
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

  /**
   * SES accepts a message to a suppressed address and drops it unsent (a bounce event of subtype
   * OnAccountSuppressionList follows), so SendEmail cannot tell: the list is asked first.
   * GetSuppressedDestination answers the entry, or NotFoundException when there is none.
   */
  async isSuppressed(address: string): Promise<boolean> {
    if (this.options.suppressionList === false) return false;
    try {
      await this.ses.send(new GetSuppressedDestinationCommand({ EmailAddress: address }));
      return true;
    } catch (error) {
      if (error instanceof NotFoundException) return false;
      throw new MailUnavailableError('The email provider could not tell whether the address is suppressed', {
        cause: error,
      });
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
  return new SesMailer(client, config.MAIL_FROM, {
    ...(config.SES_CONFIGURATION_SET ? { configurationSet: config.SES_CONFIGURATION_SET } : {}),
    suppressionList: !config.SES_ENDPOINT,
  });
}
