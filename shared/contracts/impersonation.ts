import * as z from 'zod/mini';
import { Session, User } from './common.ts';

const Actor = z.object({ userId: z.string(), email: z.string() });

/** ImpersonationRecord (docs/api.md, Impersonation): who acted as whom, why, and when it started, lapses and ended. */
export const ImpersonationRecord = z.object({
  id: z.string(),
  applicationId: z.string(),
  userId: z.string(),
  actor: Actor,
  reason: z.string(),
  startedAt: z.string(),
  expiresAt: z.string(),
  /** Null while it runs, and when it lapsed without an end. */
  endedAt: z.nullable(z.string()),
  sessionId: z.string(),
});

/** A started impersonation: the record, and the session of the end user with its token (docs/api.md, Impersonation). */
export const ImpersonationStarted = z.object({
  impersonation: ImpersonationRecord,
  user: User,
  token: z.string(),
  session: Session,
});
