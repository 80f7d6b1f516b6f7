import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail, retryLater } from '../errors.ts';
import { MailUnavailableError } from '../mail/mailer.ts';
import { newId } from '../random.ts';
import { limits } from '../rate-limit/limits.ts';
import {
  MAX_RACES,
  type RateLog,
  rateLogFrom,
  rateLogKey,
  recordHit,
  refundHit,
  tooBusy,
  withState,
} from '../rate-limit/rate-limit.ts';
import { batchGet } from '../store/batch-get.ts';
import { cancellationItems, failedConditions, isConditionFailure } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import { applicationFromItem } from '../tenancy/applications.ts';
import { mailboxOf } from '../users/user.ts';
import { codeHash, generateCode, generateDeviceCode } from './code.ts';
import { signInEmail } from './email.ts';
import { CODE_TTL_SECONDS, POLL_INTERVAL_SECONDS, signInItem, ttlOf } from './request.ts';

/** 503 answers ask the client to come back after this long. */
const MAIL_RETRY_AFTER_SECONDS = 30;

export interface StartInput {
  scope: string;
  /** The key's application (null on the platform); read here, with the rate-limit windows. */
  applicationId: string | null;
  email: string;
  name?: string;
  sourceIp: string;
}

/**
 * SPEC §3.1 (none) -> pending. One BatchGetItem reads the application and both limits' logs; one
 * TransactWriteItems counts both limits and writes the request (replacing any earlier one for the
 * address) with its device grant; then one email. The answer never depends on whether the address
 * has an account.
 */
export async function startSignIn(deps: Deps, input: StartInput) {
  const now = deps.clock.now();
  // Per mailbox across every scope: neither many applications nor `+tag` aliases flood one inbox.
  const mailbox = sha256Hex(mailboxOf(input.email));
  const [ipItem, recipientItem, appItem] = await batchGet(deps, [
    rateLogKey(limits.startPerIp, input.sourceIp),
    rateLogKey(limits.startPerRecipient, mailbox),
    ...(input.applicationId ? [keys.application(input.applicationId)] : []),
  ]);
  let ipLog = rateLogFrom(limits.startPerIp, input.sourceIp, ipItem);
  let recipientLog = rateLogFrom(limits.startPerRecipient, mailbox, recipientItem);
  if (input.applicationId && !appItem) throw fail('unauthorized', 'The API key is not valid');
  const application = appItem ? applicationFromItem(appItem) : null;

  const requestId = newId(deps.random, 'sir');
  const code = generateCode(deps.random);
  const deviceCode = generateDeviceCode(deps.random);
  const validUntil = now + CODE_TTL_SECONDS * 1000;
  const syntheticDomain = application?.config['authentication.syntheticEmailDomain'];
  const isSynthetic =
    syntheticDomain !== undefined && input.email.endsWith(`@${syntheticDomain.toLowerCase()}`);
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
  const writes = [
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
  ];
  // A lost race on either log returns its current state: decide again and retry (no read).
  for (let attempt = 0; ; attempt++) {
    if (attempt >= MAX_RACES) throw tooBusy();
    try {
      await deps.db.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: recordHit(deps.db.table, ipLog, now) },
            { Update: recordHit(deps.db.table, recipientLog, now) },
            ...writes,
          ],
        }),
      );
      break;
    } catch (error) {
      const failed = failedConditions(error);
      if (!failed) throw error;
      const current = cancellationItems(error);
      if (failed.includes(0)) ipLog = withState(ipLog, current[0]);
      if (failed.includes(1)) recipientLog = withState(recipientLog, current[1]);
    }
  }

  const sender = application?.name ?? deps.config.SERVICE_NAME;
  try {
    await deps.mailer.send(signInEmail({ to: input.email, code, sender, minutes: CODE_TTL_SECONDS / 60 }));
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) throw error;
    deps.logger.log('error', 'sign-in email not sent', {
      errorName: (error.cause as Error | undefined)?.name,
    });
    await withdraw(deps, request, requestId, recipientLog, now);
    throw retryLater(
      'mailUnavailable',
      () => 'The sign-in email could not be sent; try again shortly',
      MAIL_RETRY_AFTER_SECONDS,
    );
  }
  return { sent: true as const, deviceCode, expiresIn: CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS };
}

/**
 * No usable code is left behind when the email did not go out (its device grant then points at
 * nothing), and the recipient's hit is given back: an outage must not lock an address out. The
 * delete and the refund are separate writes, so a concurrent start cannot cancel the delete.
 */
async function withdraw(
  deps: Deps,
  request: { pk: string; sk: string },
  requestId: string,
  log: RateLog,
  now: number,
) {
  try {
    await deps.db.client.send(
      new DeleteCommand({
        TableName: deps.db.table,
        Key: { pk: request.pk, sk: request.sk },
        ConditionExpression: 'requestId = :requestId',
        ExpressionAttributeValues: { ':requestId': requestId },
      }),
    );
  } catch (error) {
    // A newer start replaced it already: nothing of ours is left to withdraw.
    if (!isConditionFailure(error)) throw error;
  }
  await refundHit(deps, log, now);
}
