import * as z from 'zod/mini';

/** User. `image` is an https URL or null (docs/api.md, Profile images). */
export const User = z.object({
  id: z.string(),
  email: z.string(),
  name: z.nullable(z.string()),
  image: z.nullable(z.string()),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});

/** The `session` object of SignInResult and SessionInfo. */
export const Session = z.object({
  id: z.string(),
  /** Null for a platform session (docs/api.md, Management API). */
  applicationId: z.nullable(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
});

/** SignInResult (docs/api.md, Endpoints): the answer of verify, poll and refresh. */
export const SignInResult = z.object({ user: User, token: z.string(), session: Session });

/** Page (docs/api.md, Management API); unpaginated lists have `total` and `hasMore` null. */
export const Page = z.object({
  limit: z.int(),
  offset: z.int(),
  total: z.nullable(z.int()),
  hasMore: z.nullable(z.boolean()),
});

/** How sign-in pages and emails present an application. */
const Branding = z.object({
  primaryColor: z.optional(z.string()),
  backgroundColor: z.optional(z.string()),
});

/** The fields of an application any holder of its key may see. */
export const PublicApplication = z.object({
  id: z.string(),
  name: z.string(),
  logoUrl: z.nullable(z.string()),
  branding: Branding,
});

/** A 204 or any answer without a body. */
export const NoBody = z.undefined();
