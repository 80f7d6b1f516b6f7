import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import * as routes from '../../shared/route-table/social/social-exchange.ts';
import { exchangeSocialCode } from '../../shared/social/flow.ts';

export const handler = http(routes.socialExchange, async ({ deps, caller, body, client, remainingMs }) =>
  signInReply(
    deps,
    client.origin,
    await exchangeSocialCode(deps, {
      code: body.code,
      codeVerifier: body.code_verifier,
      applicationId: caller.application.id,
      sourceIp: client.ip,
      userAgent: client.userAgent,
      remainingMs,
    }),
  ),
);
