import * as z from 'zod/mini';
import { Page, User } from './common.ts';

/** An application's end user as the application's managers see it (docs/api.md, The managed User). */
export const ManagedUser = z.extend(User, {
  disabled: z.boolean(),
  /** When the application disabled it; null while it may sign in. */
  disabledAt: z.nullable(z.string()),
  /** The last completed sign-in; null for users created before it was recorded. */
  lastSignInAt: z.nullable(z.string()),
});

export const ManagedUserList = z.object({ items: z.array(ManagedUser), page: Page });

/** The answer of revoke-sessions: how many live sessions ended. */
export const SessionsRevoked = z.object({ revoked: z.literal(true), count: z.int() });

/** A tenant organization (SPEC "Application organizations"), as its application's managers see it. */
export const TenantOrganization = z.object({
  id: z.string(),
  name: z.string(),
  applicationId: z.string(),
  memberCount: z.int(),
  createdAt: z.string(),
});

export const TenantOrganizationList = z.object({ items: z.array(TenantOrganization), page: Page });
