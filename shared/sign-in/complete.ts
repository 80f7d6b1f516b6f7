import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { type AppError, fail } from '../errors.ts';
import { newId } from '../random.ts';
import { publicSession, type SessionRecord, sessionItem } from '../sessions/session.ts';
import { issueSessionToken } from '../sessions/token.ts';
import { failedConditions, type TransactItem } from '../store/errors.ts';
import { keys, PLATFORM } from '../store/keys.ts';
import { completeProfile } from '../users/profile.ts';
import type { User } from '../users/user.ts';
import { MAX_ATTEMPTS, type SignInRequest } from './request.ts';

export interface CompleteInput {
  request: SignInRequest;
  /** The account item of the address in this scope, or undefined: this sign-in creates the account. */
  account: Record<string, unknown> | undefined;
  /** The state the request must still be in: `pending` for verify, `approved` for poll. */
  expectStatus: 'pending' | 'approved';
  /** Further writes of the same transaction (poll deletes its device grant). */
  alsoWrite?: TransactItem[];
  /** What the caller answers when another request consumed the code first. */
  raced: () => AppError;
  userAgent: string;
  sourceIp: string;
}

/** SignInResult (SPEC §2) plus what the HTTP layer needs for headers. */
export interface SignInResult {
  user: User;
  token: string;
  session: ReturnType<typeof publicSession>;
  scope: string;
}

/**
 * pending|approved -> consumed (SPEC §3.1), in ONE TransactWriteItems: the request is deleted
 * only if it is still the same, unexpired, undestroyed request in the expected state, so of any
 * number of concurrent attempts exactly one gets a session. The first sign-in of an address also
 * creates its account (unique per scope by a conditional put), user and own organization.
 */
export async function completeSignIn(deps: Deps, input: CompleteInput): Promise<SignInResult> {
  const { request } = input;
  const now = deps.clock.now();
  const createdAt = new Date(now).toISOString();
  const user: User = input.account
    ? await completeProfile(deps, request.scope, input.account)
    : {
        id: newId(deps.random, 'usr'),
        email: request.email,
        name: request.name ?? null,
        image: null,
        emailVerified: true,
        createdAt,
      };
  const sessionId = newId(deps.random, 'ses');
  const issued = await issueSessionToken(deps, {
    userId: user.id,
    email: user.email,
    sessionId,
    scope: request.scope,
  });
  const session: SessionRecord = {
    id: sessionId,
    userId: user.id,
    scope: request.scope,
    jti: issued.jti,
    createdAt,
    expiresAt: issued.expiresAt,
    userAgent: input.userAgent.slice(0, 512),
    ip: input.sourceIp,
  };

  const table = deps.db.table;
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: table,
        Key: keys.signIn(request.scope, request.email),
        ConditionExpression:
          'requestId = :requestId AND #status = :status AND attempts < :max AND validUntil > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':requestId': request.requestId,
          ':status': input.expectStatus,
          ':max': MAX_ATTEMPTS,
          ':now': now,
        },
      },
    },
    { Put: { TableName: table, Item: sessionItem(session) } },
    ...(input.alsoWrite ?? []),
  ];
  if (!input.account) items.push(...accountItems(deps, user, request.scope, createdAt));

  try {
    await deps.db.client.send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(0)) throw input.raced();
    // The account appeared since we read it: only another path creating accounts can do that.
    if (failed) throw fail('accountChanged', 'The account changed during sign-in; try again');
    throw error;
  }
  return { user, token: issued.token, session: publicSession(session), scope: request.scope };
}

/** SPEC §1.7: a first sign-in creates the account, email-verified, with an organization it owns. */
function accountItems(deps: Deps, user: User, scope: string, createdAt: string): TransactItem[] {
  const table = deps.db.table;
  const organizationId = newId(deps.random, 'org');
  // The image is stored in parts beside the account (shared/users/profile.ts); a new user has none.
  const { image: _none, ...fields } = user;
  const profile = { ...fields, imageParts: 0, scope };
  return [
    {
      Put: {
        TableName: table,
        Item: { ...keys.account(scope, user.email), type: 'account', userId: user.id, ...profile },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: table, Item: { ...keys.user(user.id), type: 'user', ...profile } } },
    {
      Put: {
        TableName: table,
        Item: {
          ...keys.organization(organizationId),
          type: 'organization',
          id: organizationId,
          name: `${user.name ?? user.email.split('@')[0]}'s organization`,
          // DESIGN §5: a platform organization, or a tenant organization of the application.
          kind: scope === PLATFORM ? 'platform' : 'tenant',
          ...(scope === PLATFORM ? {} : { applicationId: scope }),
          ownerId: user.id,
          createdAt,
        },
      },
    },
    {
      Put: {
        TableName: table,
        Item: { ...keys.member(organizationId, user.id), type: 'member', role: 'owner', createdAt },
      },
    },
  ];
}
