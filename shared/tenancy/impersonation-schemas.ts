import * as z from 'zod/mini';

/** An id in a path: any string is looked up, and one that names nothing is 404 like an unknown one. */
const Id = z.string().check(z.minLength(1), z.maxLength(100));

export const ImpersonateUserPath = z.object({ applicationId: Id, userId: Id });
export const ImpersonationPath = z.object({ id: Id });

/** Controls other than a line break, and bidi overrides: the trail shows a reason as it was written. */
const HIDDEN = /(?!\n)[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

/** Issue 8: why the support user acts as the end user, 1 to 500 characters after trimming. */
export const StartImpersonationBody = z.strictObject({
  reason: z.string().check(
    z.refine((reason: string) => !HIDDEN.test(reason), {
      message: 'a reason cannot hold control characters',
    }),
    z.trim(),
    z.minLength(1),
    z.maxLength(500),
  ),
});
