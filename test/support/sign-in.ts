import { randomUUID } from 'node:crypto';
import { CODE_ALPHABET } from '../../shared/sign-in/code.ts';
import type { TestApp } from './app.ts';
import { freshIp } from './http-client.ts';
import { latestCode } from './inbox.ts';

/** A fresh address nobody else in the run uses. */
export const newEmail = (domain = 'example.test') => `user-${randomUUID().slice(0, 12)}@${domain}`;

/** A well-formed code that is not `code`: its first character moved one place along the alphabet. */
export function wrongCode(code: string): string {
  const at = CODE_ALPHABET.indexOf(code.charAt(0).toUpperCase());
  if (at < 0) throw new Error(`not a sign-in code: ${code}`);
  return `${CODE_ALPHABET[(at + 1) % CODE_ALPHABET.length]}${code.slice(1)}`;
}

/** start -> read the emailed code -> verify; returns the SignInResult body and the code. */
export async function signIn(app: TestApp, email = newEmail(), headers: Record<string, string> = {}) {
  const start = await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });
  if (start.status !== 200) throw new Error(`start answered ${start.status}: ${start.text}`);
  const code = await latestCode(email);
  const verify = await app.request('POST', '/auth/code/verify', {
    body: { email, code },
    headers,
    ip: freshIp(),
  });
  if (verify.status !== 200) throw new Error(`verify answered ${verify.status}: ${verify.text}`);
  return { email, code, token: verify.body.token as string, body: verify.body, response: verify };
}

export const bearer = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
});
