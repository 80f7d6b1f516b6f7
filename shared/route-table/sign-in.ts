/**
 * Sign-in by emailed code: start, verify, the headless path's approve and poll, and the test
 * domains' peek (docs/api.md "Endpoints", "The headless path and the request phrase"). Spread into
 * the one table (shared/routes.ts). Every route here keeps answering when other functions take the
 * account's concurrency (`reserved`).
 */
import { SignInResult } from '../contracts/common.ts';
import { Approved, PeekResult, StartResult } from '../contracts/sign-in.ts';
import {
  bodyErrors,
  CODE_CHECK_THROTTLE,
  credentialErrors,
  MAIL_THROTTLE,
  type RouteSpec,
} from '../route-spec.ts';
import { CodeBody, PeekBody, PollBody, StartBody } from '../sign-in/schemas.ts';
import { byKey, signInDone } from './item-families.ts';

/** What checking an emailed code may answer, at verify and at approve (docs/security.md, Sign-in codes). */
const codeCheckErrors = [
  ...bodyErrors,
  ...credentialErrors,
  'wrongCode',
  'codeExpired',
  'accountDisabled',
  'rateLimited',
  'tooManyAttempts',
] as const;

export const signInRoutes = {
  codeStart: {
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
  },
  codeVerify: {
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
  },
  codeApprove: {
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
  },
  codePoll: {
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
  },
  codePeek: {
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
  },
} as const satisfies Record<string, RouteSpec>;
