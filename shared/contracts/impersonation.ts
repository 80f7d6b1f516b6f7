import * as z from 'zod/mini';
import { Page, Session, User } from './common.ts';

const Actor = z.object({ userId: z.string(), email: z.string() });

/** SPEC §2 ImpersonationRecord: who acted as whom, why, and when it started, lapses and ended. */
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

/** A started impersonation: the record, and the session of the end user with its token (DESIGN §5). */
export const ImpersonationStarted = z.object({
  impersonation: ImpersonationRecord,
  user: User,
  token: z.string(),
  session: Session,
});

const entryShape = { id: z.string(), at: z.string(), applicationId: z.string(), actor: Actor };

/** A setting's value in a social sign-in change: a secret only as `'set'` or `'new secret'`. */
const ChangedValue = z.nullable(z.union([z.string(), z.boolean(), z.array(z.string())]));

/** An entry of the trail: an impersonation began or ended, or the application's social sign-in changed. */
const AuditEntry = z.discriminatedUnion('action', [
  z.object({
    ...entryShape,
    action: z.enum(['impersonation.started', 'impersonation.ended']),
    userId: z.string(),
    impersonationId: z.string(),
    reason: z.string(),
  }),
  z.object({
    ...entryShape,
    action: z.literal('socialSignIn.changed'),
    changes: z.array(z.object({ path: z.string(), from: ChangedValue, to: ChangedValue })),
  }),
]);

export const AuditList = z.object({ items: z.array(AuditEntry), page: Page });
