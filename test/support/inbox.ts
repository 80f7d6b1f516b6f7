import { serviceEndpoint } from './services.ts';

export interface StoredEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** Every message the SES emulator accepted for `address`, oldest first. */
export async function mailTo(address: string): Promise<StoredEmail[]> {
  const response = await fetch(`${serviceEndpoint('sesEndpoint')}/store`);
  const { emails } = (await response.json()) as { emails: StoredEmail[] };
  return emails.filter((email) => email.destination.to.includes(address));
}

/** The code shown (XXXX-XXXX) in the newest message to `address`. */
export async function latestCode(address: string): Promise<string> {
  const messages = await mailTo(address);
  const latest = messages.at(-1);
  const code = latest?.body.text?.match(/\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/)?.[0];
  if (!code) throw new Error(`no code in the inbox of ${address}`);
  return code;
}
