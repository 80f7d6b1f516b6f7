import type { SessionRecord } from '../store/sessions.ts';

/** The UTC minute, `YYYY-MM-DDTHH:MM`, of an instant in epoch seconds: a session's counter bucket. */
export const countedInAt = (epochSeconds: number): string =>
  new Date(epochSeconds * 1000).toISOString().slice(0, 16);

/** The `session` object of SignInResult and SessionInfo. */
export const publicSession = (session: SessionRecord) => ({
  id: session.id,
  applicationId: session.scope === 'platform' ? null : session.scope,
  createdAt: session.createdAt,
  expiresAt: new Date(session.expiresAt * 1000).toISOString(),
});

/** SessionSummary: device, IP and creation time (docs/api.md, Endpoints: `GET /auth/list-sessions`). */
export const sessionSummary = (session: SessionRecord, currentId: string | null) => ({
  id: session.id,
  current: session.id === currentId,
  device: session.userAgent,
  ip: session.ip,
  createdAt: session.createdAt,
  expiresAt: new Date(session.expiresAt * 1000).toISOString(),
});
