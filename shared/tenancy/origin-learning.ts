import type { Deps } from '../deps.ts';
import { recordOrigin } from '../store/configuration.ts';
import type { ApiKey } from './api-keys.ts';
import { changeEntry, serviceRequest } from './audit.ts';
import { officialOrigin } from './origins.ts';

/**
 * docs/api.md, "Origin learning": the first real `Origin` seen with an application's key becomes
 * the application's official origin. Called by the chain on routes that may write the table, for
 * every request with a key; disposable origins (shared/tenancy/origins.ts) are never recorded and
 * authenticate as usual.
 *
 * Cost: a key whose item says `originKnown` writes nothing, and the key item is read on every key
 * path anyway, so once the origin is known a request makes no extra call. A key that has not seen
 * it yet makes ONE TransactWriteItems (shared/store/configuration.ts `recordOrigin`): the origin is
 * set only where the application has none, with its `origin.learned` entry, and the key marked
 * known; where another request or the owner set it first, that write is refused and a second one
 * only marks the key (once per key). The
 * flag never claims an origin the application lacks: it is set only in the transaction that makes
 * sure the application has one, and an owner who removes the origin clears every active key's flag
 * in the same transaction (shared/tenancy/configuration.ts). Never fails the request.
 */
export async function learnOrigin(
  deps: Deps,
  key: ApiKey,
  request: { origin: string | undefined; ip: string; userAgent: string },
): Promise<void> {
  if (key.originKnown) return;
  const official = officialOrigin(request.origin);
  if (!('origin' in official)) return;
  try {
    // docs/api.md "Audit trail": the service is the actor, the request that taught it the origin its source.
    const audit = changeEntry(deps, serviceRequest(request), 'origin.learned', {
      applicationId: key.applicationId,
      targetId: key.applicationId,
      ...(key.use ? { targetLabel: key.use.keyId } : {}),
      changes: [{ path: 'origin', from: null, to: official.origin }],
    });
    const outcome = await recordOrigin(
      deps.db,
      { applicationId: key.applicationId, keyHash: key.keyHash },
      official.origin,
      audit,
    );
    if (outcome === 'conflict') deps.logger.log('info', 'origin not noted: busy, next request tries again');
  } catch (error) {
    deps.logger.log('warn', 'could not note the application origin', { error: (error as Error).name });
  }
}
