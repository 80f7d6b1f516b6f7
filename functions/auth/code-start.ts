import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { StartBody } from '../../shared/sign-in/schemas.ts';
import { startSignIn } from '../../shared/sign-in/start.ts';
import { scopeOf } from '../../shared/tenancy/scope.ts';

export const handler = http(routes.codeStart, StartBody, async ({ deps, event, body, sourceIp }) => {
  const { scope, key } = await scopeOf(deps, event);
  const applicationId = key?.applicationId ?? null;
  return json(
    await startSignIn(deps, { scope, applicationId, email: body.email, name: body.name, sourceIp }),
  );
});
