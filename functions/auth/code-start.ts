import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sign-in/code-start.ts';
import { scopeOfCaller } from '../../shared/sessions/caller.ts';
import { startSignIn } from '../../shared/sign-in/start.ts';

export const handler = http(routes.codeStart, async ({ deps, caller, body, client }) => ({
  body: await startSignIn(deps, {
    scope: scopeOfCaller(caller),
    applicationId: caller.kind === 'apiKey' ? caller.key.applicationId : null,
    ...body,
    sourceIp: client.ip,
    userAgent: client.userAgent,
  }),
}));
