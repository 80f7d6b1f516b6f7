import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { countedInAt } from '../../shared/identity/session.ts';
import { issueSessionToken } from '../../shared/identity/session-token.ts';
import { newId } from '../../shared/random.ts';
import { sessionItem } from '../../shared/store/sessions.ts';
import type { TestApp } from './app.ts';

/**
 * One more session of an existing user of an application, issued at the app clock's now and written
 * as a completed sign-in writes it (shared/sign-in/complete.ts); the statistics aggregator counts it
 * from the table's stream, as it counts a real one. For tests that need many sessions and
 * check how they end, not how they began: a real sign-in (start, mail, verify) costs a dozen calls.
 */
export async function seedSession(
  app: TestApp,
  user: { userId: string; email: string },
  applicationId: string,
): Promise<void> {
  const { deps } = app;
  const now = deps.clock.now();
  const sessionId = newId(deps.random, 'ses');
  const issued = await issueSessionToken(deps, {
    userId: user.userId,
    email: user.email,
    sessionId,
    scope: applicationId,
  });
  const countedIn = countedInAt(issued.issuedAt);
  const session: Parameters<typeof sessionItem>[0] = {
    id: sessionId,
    userId: user.userId,
    scope: applicationId,
    jti: issued.jti,
    createdAt: new Date(now).toISOString(),
    expiresAt: issued.expiresAt,
    userAgent: 'seeded',
    ip: '127.0.0.1',
    countedIn,
  };
  await deps.db.client.send(new PutCommand({ TableName: deps.db.table, Item: sessionItem(session) }));
}
