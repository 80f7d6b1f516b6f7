import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume, rateLogRead } from '../rate-limit/rate-limit.ts';
import { applicationRead } from '../store/applications.ts';
import { readRecords } from '../store/reads.ts';
import { signInRequestRead } from '../store/sign-in-requests.ts';
import { applicationFromRecord } from '../tenancy/applications.ts';
import { isSyntheticAddress } from '../tenancy/test-domains.ts';
import { formatCode } from './code.ts';
import { isDestroyed, isExpired } from './request.ts';

/**
 * POST /auth/code/peek (test use, secret key only): the pending code of an address under the
 * application's synthetic email domain, which must lie under a reserved test TLD (a domain stored
 * before that rule shows nothing). Every refusal is the same 404, so peek reveals nothing
 * about real addresses or the configuration.
 */
export async function peekCode(
  deps: Deps,
  input: { applicationId: string; email: string; sourceIp: string },
): Promise<{ code: string }> {
  // One read for the limit, the application and the request.
  const found = await readRecords(deps.db, {
    limitLog: rateLogRead(limits.peekPerIp, input.sourceIp),
    application: applicationRead(input.applicationId),
    request: signInRequestRead(input.applicationId, input.email),
  });
  // Counted first: every answer, refusals included, costs a hit.
  await consume(deps, limits.peekPerIp, input.sourceIp, found.limitLog);
  if (!found.application) throw fail('unauthorized', 'The API key is not valid');
  const refused = () => fail('notFound', 'No code to show');
  const domain = applicationFromRecord(found.application).configuration.authentication.syntheticEmailDomain;
  if (!isSyntheticAddress(domain, input.email)) throw refused();
  const request = found.request;
  if (!request) throw refused();
  if (
    !request.peekCode ||
    request.status !== 'pending' ||
    isDestroyed(request) ||
    isExpired(request, deps.clock.now())
  ) {
    throw refused();
  }
  return { code: formatCode(request.peekCode) };
}
