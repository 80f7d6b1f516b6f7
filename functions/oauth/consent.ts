import { http } from '../../shared/http/handler.ts';
import { decideConsent } from '../../shared/oauth/consent.ts';
import * as routes from '../../shared/route-table/oauth-authorize/oauth-consent.ts';

export const handler = http(routes.oauthConsent, async ({ deps, caller, body, client }) => {
  const { location } = await decideConsent(deps, {
    requestId: body.request,
    csrf: body.csrf,
    decision: body.decision,
    confirmed: body.confirm === 'yes',
    session: caller.kind === 'platformSession' ? caller.session : null,
    origin: client.origin,
    fetchSite: client.fetchSite,
  });
  return { status: 303, headers: { location } };
});
