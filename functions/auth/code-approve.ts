import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sign-in/code-approve.ts';
import { scopeOfCaller } from '../../shared/sessions/caller.ts';
import { approveSignIn } from '../../shared/sign-in/verify.ts';

export const handler = http(routes.codeApprove, async ({ deps, caller, body, client }) => ({
  body: await approveSignIn(deps, {
    scope: scopeOfCaller(caller),
    ...body,
    sourceIp: client.ip,
    userAgent: client.userAgent,
  }),
}));
