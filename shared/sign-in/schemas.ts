import * as z from 'zod';
import { DisplayName } from '../users/display-name.ts';
import { normaliseEmail } from '../users/user.ts';
import { CODE_ALPHABET, CODE_LENGTH, normaliseCode } from './code.ts';

const Email = z.email().max(254).transform(normaliseEmail);

/** SPEC §2: case-insensitive, hyphens ignored. A code that cannot be right is not counted as an attempt. */
const Code = z
  .string()
  .max(32)
  .transform(normaliseCode)
  .refine((code) => code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)), {
    message: `the code has ${CODE_LENGTH} letters and digits, shown as XXXX-XXXX`,
  });

export const StartBody = z.object({
  email: Email,
  name: DisplayName.optional(),
});

export const CodeBody = z.object({ email: Email, code: Code });

export const PollBody = z.object({ deviceCode: z.string().length(64) });

export const PeekBody = z.object({ email: Email });
