import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { CodeBody } from '../../shared/sign-in/schemas.ts';
import { approveSignIn } from '../../shared/sign-in/verify.ts';
import { scopeOf } from '../../shared/tenancy/scope.ts';

export const handler = http(
  routes.codeApprove,
  CodeBody,
  async ({ deps, event, body, sourceIp, headers }) => {
    const { scope } = await scopeOf(deps, event);
    return json(
      await approveSignIn(deps, { scope, ...body, sourceIp, userAgent: headers['user-agent'] ?? '' }),
    );
  },
);
