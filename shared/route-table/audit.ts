/** The audit trails (docs/api.md "Audit trail"). Spread into the one table (shared/routes.ts). */
import { AuditList, AuditQuery } from '../contracts/audit.ts';
import type { RouteSpec } from '../route-spec.ts';
import { ApplicationPath, OrganizationPath } from '../tenancy/schemas.ts';
import { manager } from './item-families.ts';
import { manageErrors } from './organizations.ts';

export const auditRoutes = {
  listAudit: {
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
  },
  /** The organization's own trail: its members, invitations, and the birth and death of its applications. */
  listOrganizationAudit: {
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
  },
} as const satisfies Record<string, RouteSpec>;
