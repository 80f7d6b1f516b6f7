/**
 * `POST /oauth/consent`: the user's decision on a pending authorization request. The
 * CSRF guard is threefold: the request must be bound to the very session whose cookie came, the
 * form must carry the page's synchronizer token, and the POST must come from the service's own
 * origin (`Origin`, or no or an opaque `Origin` with `Sec-Fetch-Site: same-origin`). The request is spent by one
 * conditional delete, so it is decided once. Approval needs the form's checkbox ticked (a
 * double-click cannot approve a window opened under the cursor) and issues a code with the scopes
 * the page showed that the user's CURRENT role still grants; every refusal is an error
 * page, never a redirect.
 * docs/oauth.md, "Consent".
 */
import { sha256Hex } from '../crypto/hash.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { newWriteId } from '../random.ts';
import { postedByServicePage } from '../sessions/cookies.ts';
import type { ResolvedSession } from '../sessions/resolve.ts';
import { spendAuthorizationRequest } from '../store/oauth-requests.ts';
import { issueAuthorizationCode } from './codes.ts';
import { grantedScopes } from './model.ts';
import { redirectWith } from './redirect-uri.ts';
import { roleOnApplication } from './role.ts';

export interface ConsentInput {
  requestId: string;
  csrf: string;
  decision: 'approve' | 'deny';
  /** The form's required checkbox ("Allow … to use …"): an approval without it is refused. */
  confirmed: boolean;
  /** The platform session of the cookie, if one came and is live. */
  session: ResolvedSession | null;
  origin: string | undefined;
  fetchSite: string | undefined;
}

/** Where the browser goes next: the client's redirect URI with `code` or `error`, `state` and `iss`. */
export async function decideConsent(deps: Deps, input: ConsentInput): Promise<{ location: string }> {
  // The consent page's Referrer-Policy (no-referrer) makes Chromium send `Origin: null` on its POST.
  if (!postedByServicePage(deps.config, input))
    throw fail('forbidden', "The consent must be sent from this service's own page");
  if (!input.session) throw fail('forbidden', 'You are not signed in: start again from the application');
  // Before the spend, so the request stays usable: go back, tick the box, approve.
  if (input.decision === 'approve' && !input.confirmed) {
    throw fail('invalidRequest', 'To approve, tick the box that allows the client, then approve again');
  }
  const spent = await spendAuthorizationRequest(deps.db, input.requestId, {
    sessionId: input.session.session.id,
    csrfTokenHash: sha256Hex(input.csrf),
    now: Math.floor(deps.clock.now() / 1000),
    writeId: newWriteId(deps.random),
  });
  if (spent.outcome === 'missing') {
    throw fail('invalidRequest', 'This authorization request is unknown or was already answered');
  }
  if (spent.outcome === 'refused') {
    if (spent.current.expiresAt <= Math.floor(deps.clock.now() / 1000)) {
      throw fail('invalidRequest', 'This authorization request has expired (it lasts 10 minutes)');
    }
    throw fail('forbidden', 'This authorization request belongs to another session');
  }
  const request = spent.request;
  const answer = (parameters: Record<string, string>) => ({
    location: redirectWith(request.redirectUri, {
      ...parameters,
      state: request.state,
      iss: deps.config.ISSUER,
    }),
  });
  if (input.decision === 'deny') {
    return answer({ error: 'access_denied', error_description: 'The user denied the request' });
  }
  const userId = input.session.user.id;
  const held = await roleOnApplication(deps, userId, request.applicationId);
  // At most what the page showed, and of that only what the role allows now.
  const shown = request.shownScopes ?? [];
  const scopes = held ? grantedScopes(request.scope, held.role).filter((scope) => shown.includes(scope)) : [];
  if (scopes.length === 0) {
    return answer({
      error: 'access_denied',
      error_description: 'The user no longer holds a role that grants a scope',
    });
  }
  const code = await issueAuthorizationCode(deps, {
    clientId: request.clientId,
    clientName: request.clientName,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    applicationId: request.applicationId,
    userId,
    scopes,
  });
  return answer({ code });
}
