import { SignInResult } from '../../contracts/common.ts';
import { credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { endsSessions } from '../item-families.ts';

export const refresh = {
  method: 'POST',
  path: '/auth/refresh',
  entry: 'functions/auth/refresh.ts',
  description:
    'Rotate the session token. Same session, new token (also in `set-auth-token`); the old token ' +
    'stops working.',
  errorStyle: 'app',
  auth: 'session',
  access: { table: 'readwrite', sign: true, items: endsSessions },
  // rateLimited: concurrent writes kept cancelling the refresh with its statistics counters.
  contract: {
    responses: { 200: SignInResult },
    errors: [...credentialErrors, 'forbidden', 'rateLimited'],
  },
} as const satisfies RouteSpec;
