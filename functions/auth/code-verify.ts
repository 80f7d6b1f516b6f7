import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import { routes } from '../../shared/routes.ts';
import { CodeBody } from '../../shared/sign-in/schemas.ts';
import { verifySignIn } from '../../shared/sign-in/verify.ts';
import { scopeOf } from '../../shared/tenancy/scope.ts';

export const handler = http(routes.codeVerify, CodeBody, async ({ deps, event, body, sourceIp, headers }) => {
  const { scope } = await scopeOf(deps, event);
  const result = await verifySignIn(deps, {
    scope,
    ...body,
    sourceIp,
    userAgent: headers['user-agent'] ?? '',
  });
  return signInReply(deps, event, result);
});
