import * as z from 'zod/mini';

/**
 * Email identity: trimmed and lower-cased (docs/api.md, Endpoints: one account per normalised email
 * per scope).
 */
const normaliseEmail = (email: string): string => email.trim().toLowerCase();

const DOTLESS_PROVIDERS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, for per-recipient limits only (never for identity):
 * `+tag` sub-addresses and, at Gmail, dots in the local part all reach one inbox.
 */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  let local = email.slice(0, at).split('+')[0] ?? '';
  if (DOTLESS_PROVIDERS.has(domain)) local = local.replaceAll('.', '');
  return `${local}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`;
}

/**
 * An address as people paste it: surrounding spaces are dropped before it is checked, and capitals
 * after (the check allows ASCII only, so lower-casing cannot turn another character, such as the
 * Kelvin sign, into an ASCII letter), so " Ada@Example.com " is the account of ada@example.com
 * rather than a 400. Trimmed by z.trim(), as the impersonation reason is; the registered metadata
 * is what OpenAPI and MCP tool schemas show of the input (the pipe's first schema).
 */
const PastedEmail = z.string().check(z.maxLength(1024), z.trim()).register(z.globalRegistry, {
  format: 'email',
  description: 'An email address; surrounding spaces and capitals are dropped, then at most 254 characters',
});
export const Email = z.pipe(
  PastedEmail,
  z.pipe(z.email().check(z.maxLength(254)), z.transform(normaliseEmail)),
);
