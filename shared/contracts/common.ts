import * as z from 'zod';

/** SPEC §2 User. `image` is an https URL or null. */
export const User = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  image: z.string().nullable(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});

/** The `session` object of SignInResult and SessionInfo. */
export const Session = z.object({
  id: z.string(),
  /** Null for a platform session (SPEC §5.3). */
  applicationId: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

/** SPEC §2 SignInResult: the answer of verify, poll and refresh. */
export const SignInResult = z.object({ user: User, token: z.string(), session: Session });

/** SPEC §2 Page; unpaginated lists have `total` and `hasMore` null. */
export const Page = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int().nullable(),
  hasMore: z.boolean().nullable(),
});

/** The fields of an application any holder of its key may see. */
export const PublicApplication = z.object({
  id: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
});

/** A 204 or any answer without a body. */
export const NoBody = z.undefined();
