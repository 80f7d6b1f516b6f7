import * as z from 'zod/mini';
import { FORMAT } from '../identity/display-name.ts';

/** An id in a path: any string is looked up, and one that names nothing is 404 like an unknown one. */
const Id = z.string().check(z.minLength(1), z.maxLength(100));

export const ImpersonateUserPath = z.object({ applicationId: Id, userId: Id });
export const ImpersonationPath = z.object({ id: Id });

/**
 * Controls other than a line break, unpaired surrogates, line and paragraph separators, and the
 * invisible or reordering format characters names refuse too (shared/identity/display-name.ts): the
 * trail shows a reason as it was written.
 */
const HIDDEN = /(?!\n)[\p{Cc}\p{Cs}\u2028\u2029]/u;

/**
 * Why the support user acts as the end user, 1 to 500 characters after trimming (docs/api.md,
 * Impersonation).
 */
export const StartImpersonationBody = z.strictObject({
  reason: z.string().check(
    z.refine((reason: string) => !HIDDEN.test(reason) && !FORMAT.test(reason), {
      message: 'a reason cannot hold control, invisible or bidirectional characters',
    }),
    z.trim(),
    z.minLength(1),
    z.maxLength(500),
  ),
});
