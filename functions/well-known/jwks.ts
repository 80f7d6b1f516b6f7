import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/service/jwks.ts';

// Verifiers may cache the key set for an hour (docs/verifier.md, "Key caching"); a rotation publishes the new
// key first.
export const handler = http(routes.jwks, async ({ deps }) => ({
  body: { keys: await deps.signer.publicKeys() },
  headers: { 'cache-control': 'public, max-age=3600, stale-while-revalidate=300' },
}));
