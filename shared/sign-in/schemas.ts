import * as z from 'zod/mini';
import { DisplayName } from '../identity/display-name.ts';
import { Email } from '../identity/email.ts';
import { CODE_ALPHABET, CODE_LENGTH, normaliseCode } from './code.ts';

/** Case-insensitive, hyphens ignored. A code that cannot be right is not counted as an attempt. */
export const Code = z.pipe(z.string().check(z.maxLength(32)), z.transform(normaliseCode)).check(
  z.refine(
    (code: string) => code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)),
    {
      message: `the code has ${CODE_LENGTH} letters and digits, shown as XXXX-XXXX`,
    },
  ),
);

export const StartBody = z.object({
  email: Email,
  name: z.optional(DisplayName),
});

export const CodeBody = z.object({ email: Email, code: Code });

export const PollBody = z.object({ deviceCode: z.string().check(z.length(64)) });

export const PeekBody = z.object({ email: Email });
