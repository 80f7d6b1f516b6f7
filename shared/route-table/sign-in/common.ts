/** What the routes of sign-in.ts share (shared/route-table/sign-in.ts). */
import { bodyErrors, credentialErrors } from '../../route-spec.ts';

/** What checking an emailed code may answer, at verify and at approve (docs/security.md, Sign-in codes). */
export const codeCheckErrors = [
  ...bodyErrors,
  ...credentialErrors,
  'wrongCode',
  'codeExpired',
  'accountDisabled',
  'rateLimited',
  'tooManyAttempts',
] as const;
