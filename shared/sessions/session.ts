/**
 * What an impersonated session (DESIGN §5) records of its impersonation, so that resolving it shows
 * who acts and why without another read (SPEC §2 SessionInfo `impersonation`).
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
  /** Only on a session an impersonation started: it cannot be refreshed (DESIGN §5). */
  impersonation?: SessionImpersonation;
}

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

/** SessionSummary (SPEC §2: device, IP and creation time). */
export const sessionSummary = (session: SessionRecord, currentId: string | null) => ({
  id: session.id,
  current: session.id === currentId,
  device: session.userAgent,
  ip: session.ip,
  createdAt: session.createdAt,
  expiresAt: new Date(session.expiresAt * 1000).toISOString(),
});
