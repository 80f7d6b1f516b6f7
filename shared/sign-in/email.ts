import type { MailMessage } from '../mail/mailer.ts';
import { formatCode } from './code.ts';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** SPEC §1.1: the code only, no link; names who asks and how long the code lives. */
export function signInEmail(input: {
  to: string;
  code: string;
  sender: string;
  minutes: number;
}): MailMessage {
  const code = formatCode(input.code);
  const sender = input.sender;
  return {
    to: input.to,
    subject: `Your ${sender} sign-in code`,
    text: [
      `Your sign-in code for ${sender} is:`,
      '',
      `    ${code}`,
      '',
      `It expires in ${input.minutes} minutes and works once.`,
      'If you did not try to sign in, ignore this email: nobody can sign in without the code.',
    ].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">',
      `<p>Your sign-in code for <strong>${escapeHtml(sender)}</strong> is:</p>`,
      `<p style="font-size:28px;letter-spacing:4px;font-family:ui-monospace,monospace"><strong>${code}</strong></p>`,
      `<p>It expires in ${input.minutes} minutes and works once.</p>`,
      '<p style="color:#555">If you did not try to sign in, ignore this email: nobody can sign in without the code.</p>',
      '</body></html>',
    ].join(''),
  };
}
