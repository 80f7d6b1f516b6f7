import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { limits } from '../rate-limit/limits.ts';
import { consume } from '../rate-limit/rate-limit.ts';
import { keys } from '../store/keys.ts';
import type { Application } from '../tenancy/applications.ts';
import { formatCode } from './code.ts';
import { isDestroyed, isExpired, requestFromItem } from './request.ts';

/**
 * POST /auth/code/peek (test use, secret key only): the pending code of an address under the
 * application's synthetic email domain. Every refusal is the same 404, so peek reveals nothing
 * about real addresses or the configuration.
 */
export async function peekCode(
  deps: Deps,
  input: { application: Application; email: string; sourceIp: string },
): Promise<{ code: string }> {
  await consume(deps, limits.peekPerIp, input.sourceIp);
  const refused = () => notFound('No code to show');
  const domain = input.application.config['authentication.syntheticEmailDomain']?.toLowerCase();
  if (!domain || !input.email.endsWith(`@${domain}`)) throw refused();
  const { Item } = await deps.db.client.send(
    new GetCommand({
      TableName: deps.db.table,
      Key: keys.signIn(input.application.id, input.email),
      ConsistentRead: true,
    }),
  );
  if (!Item) throw refused();
  const request = requestFromItem(Item);
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
