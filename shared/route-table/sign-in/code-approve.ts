import { Approved } from '../../contracts/sign-in.ts';
import { CODE_CHECK_THROTTLE, type RouteSpec } from '../../route-spec.ts';
import { CodeBody } from '../../sign-in/schemas.ts';
import { byKey } from '../item-families.ts';
import { codeCheckErrors } from './common.ts';

export const codeApprove = {
  reserved: true,
  method: 'POST',
  path: '/auth/code/approve',
  entry: 'functions/auth/code-approve.ts',
  description:
    "Approve an agent's sign-in with the emailed code. The headless path: a human who reads the " +
    'email approves, with the same key as the start, and the agent that started it gets the ' +
    "session by polling. Approve only when the newest email shows the agent's phrase.",
  errorStyle: 'app',
  auth: 'key-optional',
  access: { table: 'readwrite', codeKey: true, items: [...byKey, 'account', 'rate', 'device'] },
  throttle: CODE_CHECK_THROTTLE,
  contract: {
    body: { json: CodeBody },
    responses: { 200: Approved },
    errors: codeCheckErrors,
  },
} as const satisfies RouteSpec;
