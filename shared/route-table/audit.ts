/**
 * The audit trails (docs/api.md "Audit trail").
 *
 * Each route is a module of its own in `audit/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { listAudit } from './audit/list-audit.ts';
import { listOrganizationAudit } from './audit/list-organization-audit.ts';

export const auditRoutes = { listAudit, listOrganizationAudit } as const satisfies Record<string, RouteSpec>;
