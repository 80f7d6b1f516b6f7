import { ImpersonationRecord } from '../../contracts/impersonation.ts';
import type { RouteSpec } from '../../route-spec.ts';
import { ImpersonationPath } from '../../tenancy/impersonation-schemas.ts';
import { byKey, bySession } from '../item-families.ts';

/** Authorized only by that impersonation's own token (403 otherwise, never 401). */
export const endImpersonation = {
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
} as const satisfies RouteSpec;
