import { SignInResult } from '../../contracts/common.ts';
import { bodyErrors, type RouteSpec } from '../../route-spec.ts';
import { PollBody } from '../../sign-in/schemas.ts';
import { signInDone } from '../item-families.ts';

export const codePoll = {
  reserved: true,
  method: 'POST',
  path: '/auth/code/poll',
  entry: 'functions/auth/code-poll.ts',
  description:
    'Collect the session of an approved sign-in by its device code. Answers 428 ' +
    '`authorization_pending` until a human approves; polling faster than `interval` seconds ' +
    'answers 429 `slow_down` and lengthens it.',
  errorStyle: 'app',
  auth: 'none',
  access: { table: 'readwrite', sign: true, items: signInDone },
  // An agent polls every 5 s (`interval`): 250 agents waiting at once.
  throttle: { rate: 50, burst: 100 },
  contract: {
    body: { json: PollBody },
    responses: { 200: SignInResult },
    errors: [
      ...bodyErrors,
      'pollExpired',
      'deviceCodeUnusable',
      'authorizationPending',
      'accountDisabled',
      'accountChanged',
      'rateLimited',
      'outOfTime',
    ],
  },
} as const satisfies RouteSpec;
