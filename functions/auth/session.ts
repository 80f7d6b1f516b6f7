import { http } from '../../shared/http/handler.ts';
import { json } from '../../shared/http/types.ts';
import { routes } from '../../shared/routes.ts';
import { resolveCaller } from '../../shared/sessions/resolve.ts';
import { publicSession } from '../../shared/sessions/session.ts';
import { publicApplication } from '../../shared/tenancy/applications.ts';

export const handler = http(routes.session, undefined, async ({ deps, event }) => {
  const caller = await resolveCaller(deps, event);
  const application = caller.application ? publicApplication(caller.application) : null;
  if (!caller.session) return json(application ? { application } : {});
  const { user, session, token, via } = caller.session;
  // SPEC §4.4: the token is returned only when the client cannot already hold it.
  const includeToken = via === 'cookie' || caller.bearerRejected;
  return json({ user, session: publicSession(session), application, ...(includeToken ? { token } : {}) });
});
