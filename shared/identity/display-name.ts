import * as z from 'zod/mini';

/**
 * C0 and C1 controls and DEL (`Cc`), UTF-16 surrogates not paired into one character (`Cs`, as a
 * `u` regex sees them), and the line and paragraph separators: none belongs in a name, and each can
 * break a line wherever the name is shown (an email subject, a log line, a page).
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\u2028\u2029]/u;

/**
 * Format characters (`Cf`) steer or hide text: bidi controls reorder what is shown around them
 * (`Ada\u202Egnp.exe` reads as `Adaexe.png`), zero-width spaces, word joiners, the BOM and the tag
 * block (all of U+E0000-E007F, assigned or not) are invisible. Only ZWNJ (U+200C) and ZWJ (U+200D)
 * are allowed: Persian, the Indic scripts and emoji sequences need them to spell a name.
 */
export const FORMAT = /(?![\u200C\u200D])\p{Cf}|[\u{E0000}-\u{E007F}]/u;

/**
 * What a reader can see: a letter, digit, punctuation or symbol, except the Hangul fillers and the
 * blank Braille pattern, which are drawn as nothing.
 */
const VISIBLE = /(?![\u115F\u1160\u3164\uFFA0\u2800])[\p{L}\p{N}\p{P}\p{S}]/u;

/**
 * A display name is 1 to 120 characters, counted after trimming, at least one of them
 * visible. The one schema of every name field (`start`'s and `update-user`'s), so each refuses the
 * same characters with 400 VALIDATION_ERROR (docs/api.md, Names). Checked before trimming: a
 * trailing line break is refused, not quietly cut.
 */
export const DisplayName = z.string().check(
  z.refine((name: string) => !UNPRINTABLE.test(name), {
    message: 'a name cannot hold control characters, line or paragraph separators, or unpaired surrogates',
    abort: true,
  }),
  z.refine((name: string) => !FORMAT.test(name), {
    message: 'a name cannot hold bidirectional controls or invisible format characters',
    abort: true,
  }),
  z.trim(),
  z.minLength(1),
  z.refine((name: string) => VISIBLE.test(name), {
    message: 'a name needs at least one visible character',
    abort: true,
  }),
  z.maxLength(120),
);
