import { escapeHtml } from '../html-escape.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { clientInWords, oneLine, utcInWords } from '../mail/plain-text.ts';
import { formatCode } from './code.ts';

export interface SignInEmail {
  to: string;
  code: string;
  /** Who asks: the application's name, or the service's on the platform. */
  sender: string;
  minutes: number;
  /** The phrase `start` answered: the human approves only the request whose phrase the agent shows. */
  phrase: string;
  /**
   * What else tells this request from another start for the same address (docs/api.md,
   * "The headless path and the request phrase").
   */
  requester: { at: number; ip: string; userAgent: string };
}

/**
 * The code only, no link (docs/api.md, "The headless path and the request phrase"); names who asks, how long
 * the code lives, the request's phrase, and when, from which network address and with which client it was
 * asked for. Every value is put on one line, so nothing can add a header or a line that looks like ours.
 */
export function signInEmail(input: SignInEmail): MailMessage {
  const code = formatCode(input.code);
  const sender = oneLine(input.sender);
  const phrase = oneLine(input.phrase);
  const details: [string, string][] = [
    ['Requested', utcInWords(input.requester.at)],
    ['Network address', oneLine(input.requester.ip)],
    ['Program', clientInWords(input.requester.userAgent)],
  ];
  const compare =
    'If the app or agent you are signing in with shows a phrase, use this code only if it is the same. A different phrase means someone else asked for this code: do not use it.';
  return {
    to: input.to,
    subject: `Your ${sender} sign-in code (${phrase})`,
    text: [
      `Your sign-in code for ${sender} is:`,
      '',
      `    ${code}`,
      '',
      `Phrase: ${phrase}`,
      compare,
      '',
      ...details.map(([label, value]) => `${label}: ${value}`),
      '',
      `It expires in ${input.minutes} minutes and works once.`,
      'If you did not try to sign in, ignore this email: nobody can sign in without the code.',
    ].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">',
      `<p>Your sign-in code for <strong>${escapeHtml(sender)}</strong> is:</p>`,
      `<p style="font-size:28px;letter-spacing:4px;font-family:ui-monospace,monospace"><strong>${code}</strong></p>`,
      `<p>Phrase: <strong>${escapeHtml(phrase)}</strong></p>`,
      `<p>${compare}</p>`,
      '<p style="color:#333">',
      details.map(([label, value]) => `${label}: ${escapeHtml(value)}`).join('<br>'),
      '</p>',
      `<p>It expires in ${input.minutes} minutes and works once.</p>`,
      '<p style="color:#555">If you did not try to sign in, ignore this email: nobody can sign in without the code.</p>',
      '</body></html>',
    ].join(''),
  };
}
