import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { AppError, rateLimited } from '../errors.ts';
import { MailUnavailableError } from '../mail/mailer.ts';
import { newId } from '../random.ts';
import { limits } from '../rate-limit/limits.ts';
import { countHit, type Window, windowOf } from '../rate-limit/rate-limit.ts';
import { failedConditions } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import type { Application } from '../tenancy/applications.ts';
import { mailboxOf } from '../users/user.ts';
import { codeHash, generateCode, generateDeviceCode } from './code.ts';
import { signInEmail } from './email.ts';
import { CODE_TTL_SECONDS, POLL_INTERVAL_SECONDS, signInItem, ttlOf } from './request.ts';

/** 503 answers ask the client to come back after this long. */
const MAIL_RETRY_AFTER_SECONDS = 30;

export interface StartInput {
  scope: string;
  application: Application | null;
  email: string;
  name?: string;
  sourceIp: string;
}

/**
 * SPEC §3.1 (none) -> pending. One TransactWriteItems counts both rate limits and writes the
 * request (replacing any earlier one for the address) with its device grant; then one email.
 * The answer never depends on whether the address has an account.
 */
export async function startSignIn(deps: Deps, input: StartInput) {
  const now = deps.clock.now();
  const requestId = newId(deps.random, 'sir');
  const code = generateCode(deps.random);
  const deviceCode = generateDeviceCode(deps.random);
  const validUntil = now + CODE_TTL_SECONDS * 1000;
  const syntheticDomain = input.application?.config['authentication.syntheticEmailDomain'];
  const isSynthetic =
    syntheticDomain !== undefined && input.email.endsWith(`@${syntheticDomain.toLowerCase()}`);

  const ipWindow = windowOf(limits.startPerIp, input.sourceIp, now);
  // Per mailbox across every scope: neither many applications nor `+tag` aliases flood one inbox.
  const recipientWindow = windowOf(limits.startPerRecipient, sha256Hex(mailboxOf(input.email)), now);
  const request = signInItem({
    requestId,
    scope: input.scope,
    email: input.email,
    codeHash: codeHash(requestId, code),
    attempts: 0,
    status: 'pending',
    validUntil,
    ...(input.name ? { name: input.name } : {}),
    ...(isSynthetic ? { peekCode: code } : {}),
  });
  const deviceHash = sha256Hex(deviceCode);
  try {
    await deps.db.client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: countHit(deps.db.table, limits.startPerIp, ipWindow) },
          { Update: countHit(deps.db.table, limits.startPerRecipient, recipientWindow) },
          { Put: { TableName: deps.db.table, Item: request } },
          {
            Put: {
              TableName: deps.db.table,
              Item: {
                ...keys.device(deviceHash),
                type: 'device',
                scope: input.scope,
                email: input.email,
                requestId,
                validUntil,
                interval: POLL_INTERVAL_SECONDS,
                expiresAt: ttlOf(validUntil),
              },
            },
          },
        ],
      }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(0)) throw rateLimited(ipWindow.retryAfter);
    if (failed?.includes(1)) throw rateLimited(recipientWindow.retryAfter);
    throw error;
  }

  const sender = input.application?.name ?? deps.config.SERVICE_NAME;
  try {
    await deps.mailer.send(signInEmail({ to: input.email, code, sender, minutes: CODE_TTL_SECONDS / 60 }));
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) throw error;
    deps.logger.log('error', 'sign-in email not sent', {
      errorName: (error.cause as Error | undefined)?.name,
    });
    await withdraw(deps, request, requestId, recipientWindow);
    throw new AppError(
      503,
      'SERVICE_UNAVAILABLE',
      'The sign-in email could not be sent; try again shortly',
      { retryAfter: MAIL_RETRY_AFTER_SECONDS },
      { 'retry-after': String(MAIL_RETRY_AFTER_SECONDS) },
    );
  }
  return { sent: true as const, deviceCode, expiresIn: CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS };
}

/**
 * No usable code is left behind when the email did not go out (its device grant then points at
 * nothing), and the recipient's start is given back: an outage must not lock an address out.
 */
async function withdraw(
  deps: Deps,
  request: { pk: string; sk: string },
  requestId: string,
  recipient: Window,
) {
  try {
    await deps.db.client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: deps.db.table,
              Key: { pk: request.pk, sk: request.sk },
              ConditionExpression: 'requestId = :requestId',
              ExpressionAttributeValues: { ':requestId': requestId },
            },
          },
          {
            Update: {
              TableName: deps.db.table,
              Key: recipient.key,
              UpdateExpression: 'ADD hits :minusOne',
              ConditionExpression: 'hits > :zero',
              ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
            },
          },
        ],
      }),
    );
  } catch (error) {
    // A newer start replaced it already: nothing of ours is left to withdraw.
    if (!failedConditions(error)) throw error;
  }
}
