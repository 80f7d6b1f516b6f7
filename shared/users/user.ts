/** The public User of SPEC §2. */
export interface User {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  emailVerified: boolean;
  createdAt: string;
}

/**
 * The profile attributes of a user or account item. The image is not among them: it is stored in
 * parts beside the account item (shared/store/accounts.ts), so this reads `image` as null.
 */
export function userFromItem(item: Record<string, unknown>): User {
  return {
    id: item.id as string,
    email: item.email as string,
    name: (item.name as string | undefined) ?? null,
    image: null,
    emailVerified: item.emailVerified === true,
    createdAt: item.createdAt as string,
  };
}

/** Email identity: trimmed and lower-cased (DESIGN §5: one account per normalised email per scope). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

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
