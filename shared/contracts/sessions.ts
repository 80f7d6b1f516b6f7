import * as z from 'zod';
import { Page, PublicApplication, Session, User } from './common.ts';

/**
 * SPEC §2 SessionInfo. Anonymous: `{}`; a key alone: `{ application }`; with a session, `token` only
 * when the client cannot already hold it (SPEC §4.4).
 */
export const SessionInfo = z.object({
  user: User.optional(),
  session: Session.optional(),
  application: PublicApplication.nullable().optional(),
  token: z.string().optional(),
});

/** SPEC §2 SessionSummary: device, IP and creation time. */
const SessionSummary = z.object({
  id: z.string(),
  current: z.boolean(),
  device: z.string(),
  ip: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export const SessionList = z.object({ items: z.array(SessionSummary), page: Page });

export const Revoked = z.object({ revoked: z.literal(true), count: z.number().int().optional() });

export const SignedOut = z.object({ signedOut: z.literal(true) });

export const UserResult = z.object({ user: User });
