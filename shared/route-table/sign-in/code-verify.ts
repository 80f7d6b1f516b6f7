import { SignInResult } from '../../contracts/common.ts';
import { CODE_CHECK_THROTTLE, type RouteSpec } from '../../route-spec.ts';
import { CodeBody } from '../../sign-in/schemas.ts';
import { signInDone } from '../item-families.ts';
import { codeCheckErrors } from './common.ts';

export const codeVerify = {
  reserved: true,
  method: 'POST',
  path: '/auth/code/verify',
  entry: 'functions/auth/code-verify.ts',
  description:
    'Sign in with the emailed code. Creates the account at its first sign-in and answers the ' +
    'session: its token in the body and in `set-auth-token`, and the session cookie for a platform ' +
    'origin. The fifth wrong code destroys the request.',
  errorStyle: 'app',
  auth: 'key-optional',
  access: { table: 'readwrite', sign: true, codeKey: true, items: signInDone },
  throttle: CODE_CHECK_THROTTLE,
  contract: {
    body: { json: CodeBody },
    responses: { 200: SignInResult },
    errors: [...codeCheckErrors, 'accountChanged', 'outOfTime'],
  },
} as const satisfies RouteSpec;
