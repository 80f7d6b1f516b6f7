import { http } from '../../shared/http/handler.ts';
import { signInReply } from '../../shared/http/sign-in-reply.ts';
import { routes } from '../../shared/routes.ts';
import { refreshSession } from '../../shared/sessions/manage.ts';

export const handler = http(routes.refresh, async ({ deps, caller, client }) =>
  signInReply(deps, client.origin, await refreshSession(deps, caller.session), {
    cameByCookie: caller.session.via === 'cookie',
  }),
);
