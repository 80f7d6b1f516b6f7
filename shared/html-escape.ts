/**
 * HTML escaping for the service's own pages (shared/html-page.ts) and its sign-in email
 * (shared/sign-in/email.ts): one table, so both escape the same characters.
 */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** A value made safe for text and for a double- or single-quoted attribute. */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
