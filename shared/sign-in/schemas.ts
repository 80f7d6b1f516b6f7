import * as z from 'zod/mini';
import { DisplayName } from '../users/display-name.ts';
import { normaliseEmail } from '../users/user.ts';
import { CODE_ALPHABET, CODE_LENGTH, normaliseCode } from './code.ts';

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
