import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/audit/list-organization-audit.ts';
import { listAudit } from '../../shared/tenancy/audit.ts';

export const handler = http(routes.listOrganizationAudit, async ({ deps, grant, query }) => ({
  body: await listAudit(deps, grant.organization.id, query),
}));
