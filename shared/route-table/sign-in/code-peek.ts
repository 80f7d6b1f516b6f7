import { PeekResult } from '../../contracts/sign-in.ts';
import { bodyErrors, credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { PeekBody } from '../../sign-in/schemas.ts';
import { byKey } from '../item-families.ts';

export const codePeek = {
  reserved: true,
  method: 'POST',
  path: '/auth/code/peek',
  entry: 'functions/auth/code-peek.ts',
  description:
    "Read the pending code of an address of the application's synthetic test domain. Such an " +
    'address is never mailed, so its tests read the code here, with the secret key; any refusal ' +
    'is 404.',
  errorStyle: 'app',
  auth: 'secret-key',
  access: { table: 'readwrite', items: [...byKey, 'account', 'rate'] },
  // Test domains only.
  throttle: { rate: 5, burst: 10 },
  contract: {
    body: { json: PeekBody },
    responses: { 200: PeekResult },
    errors: [...bodyErrors, ...credentialErrors, 'notFound', 'rateLimited'],
  },
} as const satisfies RouteSpec;
