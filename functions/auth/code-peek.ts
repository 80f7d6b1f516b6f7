import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sign-in/code-peek.ts';
import { peekCode } from '../../shared/sign-in/peek.ts';

export const handler = http(routes.codePeek, async ({ deps, caller, body, client }) => ({
  body: await peekCode(deps, {
    applicationId: caller.key.applicationId,
    email: body.email,
    sourceIp: client.ip,
  }),
}));
