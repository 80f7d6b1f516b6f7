import { SessionInfo } from '../../contracts/sessions.ts';
import { credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { byKey, bySession } from '../item-families.ts';

export const session = {
  method: 'GET',
  path: '/auth/session',
  entry: 'functions/auth/session.ts',
  description:
    'Read the current session and its user. `{}` when signed out, `{ application }` for a key ' +
    'alone. Checks the session record, so a revoked token answers 401 at once.',
  errorStyle: 'app',
  auth: 'session-optional',
  access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey, 'impersonation'] },
  // Every page load of every platform asks, signed in or not.
  throttle: { rate: 500, burst: 1000 },
  contract: { responses: { 200: SessionInfo }, errors: [...credentialErrors] },
} as const satisfies RouteSpec;
