import * as z from 'zod/mini';

/**
 * C0 and C1 controls and DEL (`Cc`), UTF-16 surrogates not paired into one character (`Cs`, as a
 * `u` regex sees them), and the line and paragraph separators: none belongs in a name, and each can
 * break a line wherever the name is shown (an email subject, a log line, a page).
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\u2028\u2029]/u;

/**
 * SPEC §2 / §8: a display name is 1 to 120 characters, counted after trimming. The one schema of
 * every name field (`start`'s and `update-user`'s), so each refuses the same characters with 400
 * VALIDATION_ERROR (issue 7, item 8). Checked before trimming: a trailing line break is refused,
 * not quietly cut.
 */
export const DisplayName = z.string().check(
  z.refine((name: string) => !UNPRINTABLE.test(name), {
    message: 'a name cannot hold control characters, line or paragraph separators, or unpaired surrogates',
    abort: true,
  }),
  z.trim(),
  z.minLength(1),
  z.maxLength(120),
);
