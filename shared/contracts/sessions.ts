import * as z from 'zod/mini';
import { Page, PublicApplication, Session, User } from './common.ts';

/**
 * SessionInfo (docs/api.md, Endpoints). Anonymous: `{}`; a key alone: `{ application }`; with a session,
 * `token` only when the client cannot already hold it.
 */
export const SessionInfo = z.object({
  user: z.optional(User),
  session: z.optional(Session),
  application: z.optional(z.nullable(PublicApplication)),
  token: z.optional(z.string()),
  /** Only for an impersonated session (docs/api.md, Impersonation). */
  impersonation: z.optional(
    z.object({
      id: z.string(),
      actor: z.object({ userId: z.string(), email: z.string() }),
      reason: z.string(),
      startedAt: z.string(),
      expiresAt: z.string(),
    }),
  ),
});

/** SessionSummary (docs/api.md, Endpoints): device, IP and creation time. */
const SessionSummary = z.object({
  id: z.string(),
  current: z.boolean(),
  device: z.string(),
  ip: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export const SessionList = z.object({ items: z.array(SessionSummary), page: Page });

export const Revoked = z.object({ revoked: z.literal(true), count: z.optional(z.int()) });

export const SignedOut = z.object({ signedOut: z.literal(true) });

export const UserResult = z.object({ user: User });
