/**
 * Sign-in by emailed code: start, verify, the headless path's approve and poll, and the test
 * domains' peek (docs/api.md "Endpoints", "The headless path and the request phrase"). Every route
 * here keeps answering when other functions take the account's concurrency (`reserved`).
 *
 * Each route is a module of its own in `sign-in/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { codeApprove } from './sign-in/code-approve.ts';
import { codePeek } from './sign-in/code-peek.ts';
import { codePoll } from './sign-in/code-poll.ts';
import { codeStart } from './sign-in/code-start.ts';
import { codeVerify } from './sign-in/code-verify.ts';

export const signInRoutes = {
  codeStart,
  codeVerify,
  codeApprove,
  codePoll,
  codePeek,
} as const satisfies Record<string, RouteSpec>;
