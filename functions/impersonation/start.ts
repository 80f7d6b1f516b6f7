import { http } from '../../shared/http/handler.ts';
import { impersonationStartedReply } from '../../shared/http/impersonation-reply.ts';
import * as routes from '../../shared/route-table/impersonation/start-impersonation.ts';
import { startImpersonation } from '../../shared/tenancy/impersonation.ts';

export const handler = http(routes.startImpersonation, async ({ deps, grant, params, body, client }) =>
  impersonationStartedReply(
    deps,
    client.origin,
    await startImpersonation(deps, grant, {
      userId: params.userId,
      reason: body.reason,
      userAgent: client.userAgent,
      ip: client.ip,
    }),
  ),
);
