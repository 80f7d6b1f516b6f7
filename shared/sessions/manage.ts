import { BatchWriteCommand, DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { SignInResult } from '../sign-in/complete.ts';
import { conditionFailureItem, isConditionFailure } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import type { ResolvedSession } from './resolve.ts';
import { publicSession, type SessionRecord, sessionFromItem, sessionSummary } from './session.ts';
import { issueSessionToken } from './token.ts';

/**
 * POST /auth/refresh (SPEC §3.2): same session id, new token and expiry. The record's jti is
 * swapped conditionally, so the old token stops working at once and two refreshes cannot both win.
 */
export async function refreshSession(deps: Deps, current: ResolvedSession): Promise<SignInResult> {
  const { session, user } = current;
  const issued = await issueSessionToken(deps, {
    userId: user.id,
    email: user.email,
    sessionId: session.id,
    scope: session.scope,
  });
  try {
    await deps.db.client.send(
      new UpdateCommand({
        TableName: deps.db.table,
        Key: keys.session(user.id, session.id),
        UpdateExpression: 'SET jti = :jti, expiresAt = :expiresAt',
        ConditionExpression: 'jti = :old',
        ExpressionAttributeValues: {
          ':jti': issued.jti,
          ':expiresAt': issued.expiresAt,
          ':old': session.jti,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // An SDK retry of our own update that had landed (its answer lost) finds our jti: that is success.
    if (conditionFailureItem(error)?.jti !== issued.jti)
      throw fail('unauthorized', 'The session token is not valid');
  }
  const refreshed: SessionRecord = { ...session, jti: issued.jti, expiresAt: issued.expiresAt };
  return { user, token: issued.token, session: publicSession(refreshed), scope: session.scope };
}

/** Every session of a user (a user belongs to one scope), strongly consistent. */
async function sessionsOf(deps: Deps, userId: string): Promise<SessionRecord[]> {
  const sessions: SessionRecord[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.client.send(
      new QueryCommand({
        TableName: deps.db.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': keys.sessionPrefix },
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of page.Items ?? []) sessions.push(sessionFromItem(item));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  const now = deps.clock.now();
  // TTL deletes late: expired records are not sessions any more.
  return sessions
    .filter((session) => session.expiresAt * 1000 > now)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

async function deleteSessions(deps: Deps, userId: string, sessionIds: string[]): Promise<void> {
  for (let i = 0; i < sessionIds.length; i += 25) {
    let requests = sessionIds
      .slice(i, i + 25)
      .map((id) => ({ DeleteRequest: { Key: keys.session(userId, id) } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 5) throw new Error('BatchWriteItem left deletes unprocessed');
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
      const answer = await deps.db.client.send(
        new BatchWriteCommand({ RequestItems: { [deps.db.table]: requests } }),
      );
      requests = (answer.UnprocessedItems?.[deps.db.table] as typeof requests | undefined) ?? [];
    }
  }
}

/** POST /auth/sign-out: ends every session of the user in this application (SPEC §3.2). */
async function signOutEverywhere(deps: Deps, current: ResolvedSession): Promise<void> {
  const ids = new Set((await sessionsOf(deps, current.user.id)).map((session) => session.id));
  ids.add(current.session.id);
  await deleteSessions(deps, current.user.id, [...ids]);
}

/** POST /auth/revoke-session-by-id: only the caller's own sessions can be named; others are ignored. */
export async function revokeSession(deps: Deps, current: ResolvedSession, sessionId: string): Promise<void> {
  await deps.db.client.send(
    new DeleteCommand({ TableName: deps.db.table, Key: keys.session(current.user.id, sessionId) }),
  );
}

/** POST /auth/revoke-other-sessions: the calling session stays. */
export async function revokeOtherSessions(deps: Deps, current: ResolvedSession): Promise<number> {
  const others = (await sessionsOf(deps, current.user.id)).filter(
    (session) => session.id !== current.session.id,
  );
  await deleteSessions(
    deps,
    current.user.id,
    others.map((session) => session.id),
  );
  return others.length;
}

/** GET /auth/list-sessions: newest first, not paginated, so `total` and `hasMore` are null (SPEC §2 Page). */
export async function listSessions(deps: Deps, current: ResolvedSession) {
  const items = (await sessionsOf(deps, current.user.id)).map((s) => sessionSummary(s, current.session.id));
  return { items, page: { limit: items.length, offset: 0, total: null, hasMore: null } };
}

/** POST /auth/sign-out: ends every session of each presented user in the target application (SPEC §3.2). */
export async function signOut(deps: Deps, presented: readonly ResolvedSession[]): Promise<void> {
  const users = new Map(presented.map((current) => [current.user.id, current]));
  for (const current of users.values()) await signOutEverywhere(deps, current);
}
