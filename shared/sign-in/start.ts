import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail, retryLater } from '../errors.ts';
import { MailUnavailableError } from '../mail/mailer.ts';
import { withoutLinks } from '../mail/plain-text.ts';
import { newId } from '../random.ts';
import { countingRefusal, MAX_WRITES, newHit, tooBusy } from '../rate-limit/rate-limit.ts';
import { applicationRead } from '../store/applications.ts';
import type { Hit } from '../store/rate-logs.ts';
import { readRecords } from '../store/reads.ts';
import { openRequest, type SignInRequest, withdrawRequest } from '../store/sign-in-requests.ts';
import { applicationFromRecord } from '../tenancy/applications.ts';
import { isSyntheticAddress } from '../tenancy/test-domains.ts';
import { codeHash, generateCode, generateDeviceCode } from './code.ts';
import { signInEmail } from './email.ts';
import { checkMailCap, giveBackMailCap, mailCapRead, takeMailCap } from './mail-cap.ts';
import { generatePhrase } from './phrase.ts';
import { CODE_TTL_SECONDS, POLL_INTERVAL_SECONDS } from './request.ts';
import {
  afterRace,
  refundRecipient,
  type StartLogs,
  startHits,
  startLogReads,
  startLogs,
} from './start-limits.ts';

/** 503 answers ask the client to come back after this long. */
const MAIL_RETRY_AFTER_SECONDS = 30;

export interface StartInput {
  scope: string;
  /** The key's application (null on the platform); read here, with the rate-limit windows. */
  applicationId: string | null;
  email: string;
  name?: string;
  sourceIp: string;
  /**
   * The client's own description, shown in the email with the source IP (docs/api.md,
   * "The headless path and the request phrase").
   */
  userAgent: string;
}

/**
 * A request goes from none to pending (docs/data-model.md, Items). One BatchGetItem reads the application and
 * the limits' logs; one TransactWriteItems counts the limits and writes the request (replacing any earlier
 * one for the address) with its device grant; then one email. The answer never depends on whether the address
 * has an account. Its phrase, shown in the email too, lets a human tell this request from a later start for
 * the same address by someone else (docs/security.md,
 * "Telling two sign-in requests apart (the request phrase)").
 *
 * An address on SES's suppression list (it bounced hard or complained; docs/security.md, "Mail reputation")
 * gets the same answer, and its request is opened the same way, but no email goes out, so its code is never
 * known to anyone; the answer does not tell that the address is suppressed. Each email takes one slot of the
 * service's hourly cap (`mail-cap.ts`).
 */
export async function startSignIn(deps: Deps, input: StartInput) {
  const now = deps.clock.now();
  const found = await readRecords(deps.db, {
    ...startLogReads(input),
    application: input.applicationId ? applicationRead(input.applicationId) : undefined,
    mailCap: mailCapRead(deps, now),
  });
  let logs = startLogs(input, found);
  if (input.applicationId && !found.application) throw fail('unauthorized', 'The API key is not valid');
  checkMailCap(deps, now, found.mailCap);
  const application = found.application ? applicationFromRecord(found.application) : null;

  const requestId = newId(deps.random, 'sir');
  const code = generateCode(deps.random);
  const deviceCode = generateDeviceCode(deps.random);
  const phrase = generatePhrase(deps.random);
  const validUntil = now + CODE_TTL_SECONDS * 1000;
  const syntheticDomain = application?.configuration.authentication.syntheticEmailDomain ?? null;
  const isSynthetic = isSyntheticAddress(syntheticDomain, input.email);
  const request: SignInRequest = {
    requestId,
    scope: input.scope,
    email: input.email,
    codeHash: await codeHash(deps.codeHasher, requestId, code),
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
  // Asked beside the limits' transaction, so it adds no latency of its own; not for a request already
  // refused (unknown key, full hourly cap) nor for a test address, which is never mailed.
  const suppressed = isSynthetic ? Promise.resolve(false) : isSuppressed(deps, input.email);
  // One hit, counted in every log. A failed condition on one (a full log, or a log changed under a
  // rewrite) returns its current state: decide again and retry, without a read, MAX_WRITES in all.
  const hit = newHit(deps.random, now);
  for (let write = 0; ; write++) {
    if (write >= MAX_WRITES) throw tooBusy();
    const opened = await openRequest(deps.db, {
      request,
      deviceCodeHash: sha256Hex(deviceCode),
      device,
      hits: countingRefusal(deps.metrics, () => startHits(deps.db.table, logs, hit)),
    });
    if (opened.outcome === 'opened') break;
    // Concurrent writes kept cancelling it (real DynamoDB; nothing was written): come back in a moment.
    if (opened.outcome === 'conflict') throw tooBusy();
    logs = afterRace(logs, opened.logs);
  }
  const answer = {
    sent: true as const,
    deviceCode,
    phrase,
    expiresIn: CODE_TTL_SECONDS,
    interval: POLL_INTERVAL_SECONDS,
  };

  if (await suppressed) {
    deps.logger.log('info', 'sign-in email not sent: the address is on the SES suppression list');
    deps.metrics.count('SignInsStarted');
    return answer;
  }
  // A test address (under the application's synthetic domain, a reserved TLD that never resolves) is
  // read by peek, never mailed: every send would hard-bounce and raise the account's bounce rate.
  if (isSynthetic) {
    deps.metrics.count('SignInsStarted');
    return answer;
  }
  try {
    await takeMailCap(deps, now);
  } catch (error) {
    await withdraw(deps, request, logs, hit);
    throw error;
  }

  // The name comes from the table: one line and no link whatever it holds, or the service's if nothing is left.
  const sender = withoutLinks(application?.name ?? '') || deps.config.SERVICE_NAME;
  try {
    await deps.mailer.send(
      signInEmail({
        to: input.email,
        code,
        sender,
        minutes: CODE_TTL_SECONDS / 60,
        phrase,
        requester: { at: now, ip: input.sourceIp, userAgent: input.userAgent },
      }),
    );
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) throw error;
    deps.metrics.count('EmailsRefused');
    deps.logger.log('error', 'sign-in email not sent', {
      errorName: (error.cause as Error | undefined)?.name,
    });
    await giveBackMailCap(deps, now);
    await withdraw(deps, request, logs, hit);
    throw retryLater(
      'mailUnavailable',
      () => 'The sign-in email could not be sent; try again shortly',
      MAIL_RETRY_AFTER_SECONDS,
    );
  }
  deps.metrics.count('EmailsSent');
  deps.metrics.count('SignInsStarted');
  return answer;
}

/**
 * Whether SES would drop the email unsent. When SES cannot tell, the email is sent: the
 * configuration set's suppression drops it anyway if the address is suppressed, so failing open
 * costs only the accuracy of this one answer, never the reputation.
 */
function isSuppressed(deps: Deps, email: string): Promise<boolean> {
  // Never rejects: it runs beside the first read, which may fail first and leave it unawaited.
  return deps.mailer.isSuppressed(email).catch((error: unknown) => {
    const cause = error instanceof MailUnavailableError ? error.cause : error;
    deps.logger.log('warn', 'suppression list not read; sending', {
      errorName: (cause as Error | undefined)?.name,
    });
    return false;
  });
}

/**
 * No usable code is left behind when the email did not go out (its device grant then points at
 * nothing), and the recipient's hits are given back: an outage must not lock an address out. The
 * delete and the refunds are separate writes, so a concurrent start cannot cancel the delete.
 */
async function withdraw(deps: Deps, request: SignInRequest, logs: StartLogs, hit: Hit) {
  // `replaced`: a newer start replaced it already, so nothing of ours is left to withdraw.
  await withdrawRequest(deps.db, request);
  await refundRecipient(deps, logs, hit);
}
