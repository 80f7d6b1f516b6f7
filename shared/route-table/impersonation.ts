/** Impersonation (docs/api.md "Impersonation"). Spread into the one table (shared/routes.ts). */
import { ImpersonationRecord, ImpersonationStarted } from '../contracts/impersonation.ts';
import type { RouteSpec } from '../route-spec.ts';
import {
  ImpersonateUserPath,
  ImpersonationPath,
  StartImpersonationBody,
} from '../tenancy/impersonation-schemas.ts';
import { byKey, bySession, manager } from './item-families.ts';
import { writeErrors } from './organizations.ts';

export const impersonationRoutes = {
  startImpersonation: {
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
      items: [...manager, 'impersonation', 'audit', 'statistics'],
    },
    permission: { action: 'impersonation.start', from: 'params' },
    audit: ['impersonation.started'],
    contract: {
      params: ImpersonateUserPath,
      body: { json: StartImpersonationBody },
      responses: { 201: ImpersonationStarted },
      errors: writeErrors,
    },
  },
  /** Authorized only by that impersonation's own token (403 otherwise, never 401). */
  endImpersonation: {
    method: 'POST',
    path: '/impersonation/{id}/end',
    entry: 'functions/impersonation/end.ts',
    description:
      "End an impersonation. Authorized only by that impersonation's own token; ending again answers the record unchanged.",
    errorStyle: 'app',
    auth: 'impersonation',
    access: {
      table: 'readwrite',
      publicKeys: true,
      items: [...bySession, ...byKey, 'impersonation', 'audit'],
    },
    audit: ['impersonation.ended'],
    contract: {
      params: ImpersonationPath,
      responses: { 200: ImpersonationRecord },
      errors: ['invalidRequest', 'forbidden', 'notFound', 'rateLimited'],
    },
  },
} as const satisfies Record<string, RouteSpec>;
