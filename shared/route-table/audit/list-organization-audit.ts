import { AuditList, AuditQuery } from '../../contracts/audit.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

/** The organization's own trail: its members, invitations, and the birth and death of its applications. */
export const listOrganizationAudit = {
  method: 'GET',
  path: '/organizations/{organizationId}/audit',
  entry: 'functions/audit/organization.ts',
  description:
    "List an organization's audit trail. Newest first, paged by cursor, filtered by action, actor, target and time.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: [...manager, 'audit'] },
  permission: { action: 'organizationAudit.read', from: 'params' },
  contract: {
    params: OrganizationPath,
    query: AuditQuery,
    responses: { 200: AuditList },
    errors: manageErrors,
  },
} as const satisfies RouteSpec;
