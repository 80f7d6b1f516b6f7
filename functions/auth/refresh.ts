import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import * as routes from '../../shared/route-table/sessions/refresh.ts';
import { refreshSession } from '../../shared/sessions/manage.ts';

export const handler = http(routes.refresh, async ({ deps, caller, client }) =>
  signInReply(deps, client.origin, await refreshSession(deps, caller.session), {
    cameByCookie: caller.session.via === 'cookie',
  }),
);
