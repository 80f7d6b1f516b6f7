import { ImpersonationStarted } from '../../contracts/impersonation.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { ImpersonateUserPath, StartImpersonationBody } from '../../tenancy/impersonation-schemas.ts';
import { manager, previousRelease } from '../item-families.ts';

export const startImpersonation = {
  method: 'POST',
  path: '/applications/{applicationId}/users/{userId}/impersonate',
  entry: 'functions/impersonation/start.ts',
  description:
    "Start acting as one of the application's end users. For 15 minutes, with a reason, recorded in the audit trail; answers the impersonation's session token.",
  errorStyle: 'app',
  auth: 'manage',
  access: {
    table: 'readwrite',
    sign: true,
    publicKeys: true,
    items: [...manager, ...previousRelease, 'impersonation', 'audit'],
  },
  permission: { action: 'impersonation.start', from: 'params' },
  audit: ['impersonation.started'],
  contract: {
    params: ImpersonateUserPath,
    body: { json: StartImpersonationBody },
    responses: { 201: ImpersonationStarted },
    errors: writeErrors,
  },
} as const satisfies RouteSpec;
