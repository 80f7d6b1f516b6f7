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
  /**
   * Whether the provider would drop mail to `address` unsent: SES does for an address on the
   * account's suppression list (a hard bounce or a complaint put it there). Rejects with
   * `MailUnavailableError` when the provider cannot tell.
   */
  isSuppressed(address: string): Promise<boolean>;
}

/** The provider refused or could not be reached; the caller answers 503 with Retry-After. */
export class MailUnavailableError extends Error {
  override readonly name = 'MailUnavailableError';
}
