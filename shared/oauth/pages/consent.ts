/**
 * The consent page: who asks (the client's name, its client_id and where the answer
 * goes), for which application, and what each granted scope lets it do, in plain words; Approve and
 * Deny in one form, with a required checkbox for Approve (a double-click on another site's page
 * cannot approve a consent window opened under the cursor). And the refusal page: an error for the
 * client, carried back only if the user follows its link. Every value escaped.
 */
import { escapeHtml } from '../../html-escape.ts';
import { htmlDocument, type PagePolicy } from '../../html-page.ts';
import type { ConsentView, RefusalView } from '../authorize.ts';
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
<label class="confirm"><input type="checkbox" name="confirm" value="yes" required> Allow ${escapeHtml(view.clientHost)} to use ${escapeHtml(view.applicationName)}</label>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
</form>`,
  );
}

/** The refusal page has no form and no image; its one link is a plain navigation, which CSP does not govern. */
export const refusalPolicy = { noForm: true } as const;

/**
 * `GET /oauth/authorize`'s error for the client when no automatic redirect may carry it (no session,
 * or a user with no role): the error, where the link leads, and the link itself.
 */
export function refusalPage(view: RefusalView): string {
  return htmlDocument(
    'This request cannot be used',
    `<h1>This request cannot be used</h1>
<p class="error"><code>${escapeHtml(view.error)}</code>: ${escapeHtml(view.description)}</p>
<p class="note">The application that sent you here can be told, at <strong>${escapeHtml(view.redirectHost)}</strong>. Follow the link only if you trust it.</p>
<p><a href="${escapeHtml(view.location)}">Return to ${escapeHtml(view.redirectHost)}</a></p>`,
  );
}
