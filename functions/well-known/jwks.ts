import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';

// Verifiers may cache the key set for an hour (SPEC §1.2); a rotation publishes the new key first.
export const handler = http(routes.jwks, undefined, async ({ deps }) =>
  json({ keys: await deps.signer.publicKeys() }, 200, {
    'cache-control': 'public, max-age=3600, stale-while-revalidate=300',
  }),
);
