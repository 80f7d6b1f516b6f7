/**
 * What an impersonated session (docs/data-model.md, "Impersonation and audit") records of its impersonation,
 * so that resolving it shows who acts and why without another read (SessionInfo `impersonation`, docs/api.md,
 * Impersonation).
 */
interface SessionImpersonation {
  id: string;
  actorId: string;
  actorEmail: string;
  reason: string;
  startedAt: string;
}

/** A server-side session. The token is valid only while this record exists and holds its `jti`. */
export interface SessionRecord {
  id: string;
  userId: string;
  /** `platform` or the application id (the token's `aud`). */
  scope: string;
  jti: string;
  createdAt: string;
  /** Epoch seconds; also the TTL attribute. */
  expiresAt: number;
  userAgent: string;
  ip: string;
  /**
   * The UTC minute (`YYYY-MM-DDTHH:MM`) of the issue or refresh the application's active-session
   * counters count this session under (shared/tenancy/statistics.ts); absent: not counted (platform
   * sessions, and sessions issued before the counters existed until their next refresh).
   */
  countedIn?: string;
  /** Only on a session an impersonation started: it cannot be refreshed (docs/api.md, Impersonation). */
  impersonation?: SessionImpersonation;
}

/** The UTC minute, `YYYY-MM-DDTHH:MM`, of an instant in epoch seconds: a session's counter bucket. */
export const countedInAt = (epochSeconds: number): string =>
  new Date(epochSeconds * 1000).toISOString().slice(0, 16);

export function sessionFromItem(item: Record<string, unknown>): SessionRecord {
  return {
    id: item.id as string,
    userId: item.userId as string,
    scope: item.scope as string,
    jti: item.jti as string,
    createdAt: item.createdAt as string,
    expiresAt: item.expiresAt as number,
    userAgent: (item.userAgent as string | undefined) ?? '',
    ip: (item.ip as string | undefined) ?? '',
    ...(typeof item.countedIn === 'string' ? { countedIn: item.countedIn } : {}),
    ...(item.impersonation ? { impersonation: item.impersonation as SessionImpersonation } : {}),
  };
}

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
