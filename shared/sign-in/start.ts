import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail, retryLater } from '../errors.ts';
import { MailUnavailableError } from '../mail/mailer.ts';
import { newId } from '../random.ts';
import { limits } from '../rate-limit/limits.ts';
import {
  MAX_WRITES,
  newHit,
  type RateLog,
  rateLogFrom,
  rateLogKey,
  recordHit,
  refundHit,
  tooBusy,
  withState,
} from '../rate-limit/rate-limit.ts';
import { readItems } from '../store/batch.ts';
import { keys } from '../store/keys.ts';
import type { Hit } from '../store/rate-logs.ts';
import { openRequest, withdrawRequest } from '../store/sign-in-requests.ts';
import { applicationFromItem } from '../tenancy/applications.ts';
import { mailboxOf } from '../users/user.ts';
import { codeHash, generateCode, generateDeviceCode } from './code.ts';
import { signInEmail } from './email.ts';
import { CODE_TTL_SECONDS, POLL_INTERVAL_SECONDS, type SignInRequest } from './request.ts';

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
  const found = await readItems(deps.db, {
    ipLog: rateLogKey(limits.startPerIp, input.sourceIp),
    recipientLog: rateLogKey(limits.startPerRecipient, mailbox),
    application: input.applicationId ? keys.application(input.applicationId) : undefined,
  });
  let ipLog = rateLogFrom(limits.startPerIp, input.sourceIp, found.ipLog);
  let recipientLog = rateLogFrom(limits.startPerRecipient, mailbox, found.recipientLog);
  if (input.applicationId && !found.application) throw fail('unauthorized', 'The API key is not valid');
  const application = found.application ? applicationFromItem(found.application) : null;

  const requestId = newId(deps.random, 'sir');
  const code = generateCode(deps.random);
  const deviceCode = generateDeviceCode(deps.random);
  const validUntil = now + CODE_TTL_SECONDS * 1000;
  const syntheticDomain = application?.config['authentication.syntheticEmailDomain'];
  const isSynthetic =
    syntheticDomain !== undefined && input.email.endsWith(`@${syntheticDomain.toLowerCase()}`);
  const request: SignInRequest = {
    requestId,
    scope: input.scope,
    email: input.email,
    codeHash: codeHash(requestId, code),
    attempts: 0,
    status: 'pending',
    validUntil,
    ...(input.name ? { name: input.name } : {}),
    ...(isSynthetic ? { peekCode: code } : {}),
  };
  const device = {
    scope: input.scope,
    email: input.email,
    requestId,
    validUntil,
    interval: POLL_INTERVAL_SECONDS,
  };
  // One hit, counted in both logs. A failed condition on either (a full log, or a log changed under
  // a rewrite) returns its current state: decide again and retry, without a read, MAX_WRITES in all.
  const hit = newHit(deps.random, now);
  for (let write = 0; ; write++) {
    if (write >= MAX_WRITES) throw tooBusy();
    const opened = await openRequest(deps.db, {
      request,
      deviceCodeHash: sha256Hex(deviceCode),
      device,
      hits: {
        ip: recordHit(deps.db.table, ipLog, hit),
        recipient: recordHit(deps.db.table, recipientLog, hit),
      },
    });
    if (opened.outcome === 'opened') break;
    if (opened.logs.ip) ipLog = withState(ipLog, opened.logs.ip.current);
    if (opened.logs.recipient) recipientLog = withState(recipientLog, opened.logs.recipient.current);
  }

  const sender = application?.name ?? deps.config.SERVICE_NAME;
  try {
    await deps.mailer.send(signInEmail({ to: input.email, code, sender, minutes: CODE_TTL_SECONDS / 60 }));
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) throw error;
    deps.logger.log('error', 'sign-in email not sent', {
      errorName: (error.cause as Error | undefined)?.name,
    });
    await withdraw(deps, request, recipientLog, hit);
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
async function withdraw(deps: Deps, request: SignInRequest, log: RateLog, hit: Hit) {
  // `replaced`: a newer start replaced it already, so nothing of ours is left to withdraw.
  await withdrawRequest(deps.db, request);
  await refundHit(deps, log, hit);
}
