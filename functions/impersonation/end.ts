import { http } from '../../shared/http/handler.ts';
import { impersonationCookieCleared } from '../../shared/http/impersonation-reply.ts';
import * as routes from '../../shared/route-table/impersonation/end-impersonation.ts';
import { endImpersonation } from '../../shared/tenancy/impersonation.ts';

export const handler = http(routes.endImpersonation, async ({ deps, caller, params, client }) => ({
  body: await endImpersonation(deps, caller.tokens, params.id),
  cookies: impersonationCookieCleared(deps, client.origin, caller.cookieCame),
}));
