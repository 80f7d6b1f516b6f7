/**
 * The consent page (issue 10): who asks (the client's name, its client_id and where the answer
 * goes), for which application, and what each granted scope lets it do, in plain words; Approve and
 * Deny in one form. Every value escaped.
 */
import { escapeHtml, htmlDocument, type PagePolicy } from '../../http/html.ts';
import type { ConsentView } from '../authorize.ts';
import type { Scope } from '../model.ts';
import { brandHeader, logoSources } from './brand.ts';

/** What each scope lets the client do, as the user reads it. */
const SCOPE_WORDS: Record<Scope, string> = {
  'auth:read':
    "Read this application's data: its settings, its users and their sessions, statistics and audit trail.",
  'auth:write': "Make changes in this application for you, such as ending a user's sessions.",
};

/** CSP: the logo, and the form posting here, whose 303 goes on to the client's redirect URI. */
export const consentPolicy = (view: ConsentView): PagePolicy => ({
  images: logoSources(view),
  formTargets: [view.formTarget],
});

export function consentPage(view: ConsentView): string {
  const scopes = view.scopes
    .map((scope) => `<li><strong>${escapeHtml(scope)}</strong>: ${escapeHtml(SCOPE_WORDS[scope])}</li>`)
    .join('');
  return htmlDocument(
    `Allow ${view.clientName}?`,
    `${brandHeader(view)}
<h1>Allow <strong>${escapeHtml(view.clientName)}</strong> to use ${escapeHtml(view.applicationName)}?</h1>
<p class="note">Client: <code>${escapeHtml(view.clientId)}</code></p>
<p class="note">After your answer you are sent to <strong>${escapeHtml(view.redirectHost)}</strong>.</p>
<p>It will be able to:</p>
<ul class="scopes">${scopes}</ul>
<form method="post" action="/oauth/consent">
<input type="hidden" name="request" value="${escapeHtml(view.requestId)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrfToken)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  );
}
