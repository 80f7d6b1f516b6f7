import { describe, expect, it } from 'vitest';
import { clientInWords, oneLine, utcInWords, withoutLinks } from '../../shared/mail/plain-text.ts';
import fc from '../support/fast-check.ts';

/** Anything that could end a header line or reorder the text around it. */
const BREAKS_A_LINE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;
/** Strings rich in controls, separators, bidi marks and lone surrogates. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('a', ' ', '\r', '\n', '\u0000', '\u0085', '\u2028', '\u202E', '\ud800', '\udc00'),
  }),
);

describe('values written into an email (no input can add a header)', () => {
  it('oneLine leaves no line break, control, bidi control or lone surrogate, and no outer space', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const line = oneLine(value);
        expect(line).not.toMatch(BREAKS_A_LINE);
        expect(line).toBe(line.trim());
      }),
      { numRuns: 500 },
    );
  });

  it('oneLine keeps printable text as it is', () => {
    expect(oneLine('Notes <Beta> & Co')).toBe('Notes <Beta> & Co');
    expect(oneLine('Ada 😀 Lovelace')).toBe('Ada 😀 Lovelace');
  });

  it('clientInWords is at most 80 printable ASCII characters (and an ellipsis) without a link', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostile,
          fc.webUrl().map((url) => `bot/1.0 (+${url})`),
        ),
        (userAgent) => {
          const client = clientInWords(userAgent);
          expect(client.length).toBeLessThanOrEqual(80);
          expect(client).toMatch(/^[\x20-\x7E]+…?$/);
          expect(client).not.toMatch(/:\/\/|www\./i);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('utcInWords says the day, date and time in UTC', () => {
    expect(utcInWords(Date.UTC(2026, 10, 23, 9, 5, 59))).toBe('Monday 23 November 2026 at 09:05 UTC');
    expect(utcInWords(Date.UTC(2027, 0, 1, 0, 0))).toBe('Friday 1 January 2027 at 00:00 UTC');
  });
});

describe('values written into an email hold nothing a mail program turns into a link', () => {
  /** What autolinkers pick up: a scheme, a `www.` host, a bare host with a letter TLD, an address. */
  const LINKABLE = /:\/\/|\bwww\.|\b(?:mailto|tel|sms):|[\w-]\.[a-z]{2,}\b|@/i;

  it.each([
    'Mozilla/5.0 approve only at doorcode-verify.com/approve',
    'bot/1.0 (support: help@doorcode-security.com)',
    'curl/8.0 mailto:help@evil.test',
    'Acme https://evil.test/approve',
    'see WWW.EVIL.TEST now',
  ])('%s', (value) => {
    expect(withoutLinks(value)).not.toMatch(LINKABLE);
    expect(clientInWords(value)).not.toMatch(LINKABLE);
  });

  it('keeps a real browser user agent readable (version numbers are not hosts)', () => {
    const agent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0.0.0 Safari/537.36';
    expect(withoutLinks(agent)).toBe(agent);
  });
});
