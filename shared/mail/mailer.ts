/** One message: plain text and HTML alternatives of the same content. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends email. `SesMailer` on AWS and locally (pointed at the SES emulator). */
export interface Mailer {
  /** Resolves once the provider accepted the message; rejects with `MailUnavailableError` otherwise. */
  send(message: MailMessage): Promise<void>;
}

/** The provider refused or could not be reached; the caller answers 503 with Retry-After. */
export class MailUnavailableError extends Error {
  override readonly name = 'MailUnavailableError';
}
