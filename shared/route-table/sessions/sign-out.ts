import { SignedOut } from '../../contracts/sessions.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { endsSessions } from '../item-families.ts';

export const signOut = {
  method: 'POST',
  path: '/auth/sign-out',
  entry: 'functions/auth/sign-out.ts',
  description:
    "Sign out. Ends all the user's sessions in the application and clears the cookie; with the " +
    'impersonation cookie, ends that impersonation too. Always 200.',
  errorStyle: 'app',
  auth: 'sign-out',
  access: { table: 'readwrite', publicKeys: true, items: endsSessions },
  audit: ['impersonation.ended'],
  contract: { responses: { 200: SignedOut }, errors: [] },
} as const satisfies RouteSpec;
