/** Recent accounts (docs/api.md, Recent accounts): the browser's list, without full addresses. */
import * as z from 'zod/mini';

const RecentAccount = z.object({
  userId: z.string(),
  name: z.nullable(z.string()),
  /** The first character of the address and its domain: `a***@example.com`. */
  maskedEmail: z.string(),
  image: z.nullable(z.string()),
  /** The application the account belongs to; null for a platform account. */
  application: z.nullable(z.object({ id: z.string(), name: z.string() })),
  lastUsedAt: z.string(),
});

/** Newest first, at most five. */
export const RecentAccountList = z.object({ items: z.array(RecentAccount) });

export const RecentAccountPath = z.object({ userId: z.string().check(z.minLength(1), z.maxLength(100)) });
