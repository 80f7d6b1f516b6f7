import { fail } from '../../shared/errors.ts';
import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { peekCode } from '../../shared/sign-in/peek.ts';
import { PeekBody } from '../../shared/sign-in/schemas.ts';
import { scopeOf } from '../../shared/tenancy/scope.ts';

export const handler = http(routes.codePeek, PeekBody, async ({ deps, event, body, sourceIp }) => {
  const { key } = await scopeOf(deps, event);
  if (key?.type !== 'secret') throw fail('unauthorized', 'A secret API key is required');
  return json(await peekCode(deps, { applicationId: key.applicationId, email: body.email, sourceIp }));
});
