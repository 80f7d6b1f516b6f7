import { htmlBody, pageHeaders } from '../../shared/html-page.ts';
import { http } from '../../shared/http/handler.ts';
import { authorize } from '../../shared/oauth/authorize.ts';
import { consentPage, consentPolicy, refusalPage, refusalPolicy } from '../../shared/oauth/pages/consent.ts';
import * as routes from '../../shared/route-table/oauth-authorize/oauth-authorize.ts';

export const handler = http(routes.oauthAuthorize, async ({ deps, caller, query, rawQuery }) => {
  const session = caller.kind === 'platformSession' ? caller.session : null;
  const outcome = await authorize(deps, { rawQuery, query, session });
  if (outcome.kind === 'refusal') {
    return { status: 400, raw: htmlBody(refusalPage(outcome.view)), headers: pageHeaders(refusalPolicy) };
  }
  if (outcome.kind !== 'consent') return { status: 302, headers: { location: outcome.location } };
  return { raw: htmlBody(consentPage(outcome.view)), headers: pageHeaders(consentPolicy(outcome.view)) };
});
