import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import * as routes from '../../shared/route-table/sign-in/code-verify.ts';
import { scopeOfCaller } from '../../shared/sessions/caller.ts';
import { verifySignIn } from '../../shared/sign-in/verify.ts';

export const handler = http(routes.codeVerify, async ({ deps, caller, body, client, remainingMs }) =>
  signInReply(
    deps,
    client.origin,
    await verifySignIn(deps, {
      scope: scopeOfCaller(caller),
      ...body,
      sourceIp: client.ip,
      userAgent: client.userAgent,
      remainingMs,
    }),
  ),
);
