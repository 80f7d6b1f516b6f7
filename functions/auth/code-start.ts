import { http } from '../../shared/http/handler.ts';
import { routes } from '../../shared/routes.ts';
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
