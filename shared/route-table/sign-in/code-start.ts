import { StartResult } from '../../contracts/sign-in.ts';
import { bodyErrors, credentialErrors, MAIL_THROTTLE, type RouteSpec } from '../../route-spec.ts';
import { StartBody } from '../../sign-in/schemas.ts';
import { byKey } from '../item-families.ts';

export const codeStart = {
  reserved: true,
  method: 'POST',
  path: '/auth/code/start',
  entry: 'functions/auth/code-start.ts',
  description:
    'Email a sign-in code. With an application key the account is one of its end users, without ' +
    'one a platform account. The answer never says whether the account exists; its `deviceCode` ' +
    'and two-word `phrase` serve the headless path (approve, then poll).',
  errorStyle: 'app',
  auth: 'key-optional',
  access: { table: 'readwrite', mail: true, codeKey: true, items: [...byKey, 'account', 'rate', 'device'] },
  // Every start sends an email.
  throttle: MAIL_THROTTLE,
  contract: {
    body: { json: StartBody },
    responses: { 200: StartResult },
    errors: [...bodyErrors, ...credentialErrors, 'rateLimited', 'mailUnavailable'],
  },
} as const satisfies RouteSpec;
