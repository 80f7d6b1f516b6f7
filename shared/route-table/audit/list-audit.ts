import { AuditList, AuditQuery } from '../../contracts/audit.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const listAudit = {
  method: 'GET',
  path: '/applications/{applicationId}/audit',
  entry: 'functions/audit/application.ts',
  description:
    "List an application's audit trail. Newest first, paged by cursor, filtered by action, actor, target and time.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: [...manager, 'audit'] },
  permission: { action: 'audit.read', from: 'params' },
  contract: {
    params: ApplicationPath,
    query: AuditQuery,
    responses: { 200: AuditList },
    errors: manageErrors,
  },
} as const satisfies RouteSpec;
