/**
 * Values written into a message as plain words. Application names come from the table, a client's
 * user agent from the request: none of them may break a line (RFC 5322 §2.2: a line break in a
 * header field starts another field, so one in the subject could add a header) or steer what the
 * reader sees (bidirectional controls reorder the text around them).
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]+/gu;

/** `value` on one line: every control, line or paragraph break, bidi control or lone surrogate becomes a space. */
export function oneLine(value: string): string {
  return value.replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
}

/** Long enough for a product and its platform (`Mozilla/5.0 (X11; Linux x86_64)`), short enough to read. */
const MAX_CLIENT_CHARS = 80;
/** A URL with a scheme, a `mailto:`-like one, or a `www.` host: mail programs would show each as a link. */
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/[^\s;)]*|\b(?:mailto|tel|sms|callto):[^\s;)]*|\bwww\.[^\s;)]*/gi;
/** A bare host or address (`verify-here.com`, `help@evil.test`): mail programs link these too. */
const HOST_LIKE = /[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/gi;

/**
 * `value` with nothing a mail program would turn into a link (no link in the email: docs/security.md,
 * "Names and email headers"): URLs are dropped, and a bare host or address keeps its words but loses its dots
 * and `@`.
 */
export function withoutLinks(value: string): string {
  return oneLine(
    value
      .replace(LINK, ' ')
      .replace(HOST_LIKE, (host) => host.replaceAll('.', ' '))
      .replaceAll('@', ' '),
  );
}

/**
 * A client's user agent as short printable ASCII without links (no link in the email: docs/security.md,
 * "Names and email headers"). It says what the client claims to be, which anyone can choose.
 */
export function clientInWords(userAgent: string): string {
  const plain = withoutLinks(userAgent.replace(/[^\x20-\x7E]+/g, ' '));
  if (plain === '') return 'not stated';
  return plain.length <= MAX_CLIENT_CHARS ? plain : `${plain.slice(0, MAX_CLIENT_CHARS - 1).trimEnd()}…`;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** An instant in plain words, in UTC whatever the reader's zone: `Monday 23 November 2026 at 09:05 UTC`. */
export function utcInWords(epochMs: number): string {
  const at = new Date(epochMs);
  const time = [at.getUTCHours(), at.getUTCMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
  return `${DAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} at ${time} UTC`;
}
