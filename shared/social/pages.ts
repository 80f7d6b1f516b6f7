/**
 * The application's social sign-in page (shared/social/sign-in-page.ts): the brand, one
 * link per provider, and the browser's recent accounts of the application, each with a Forget
 * form. No JavaScript; every value escaped.
 */
import { escapeHtml } from '../html-escape.ts';
import { htmlDocument, type PagePolicy } from '../html-page.ts';
import { brandHeader, logoSources } from '../oauth/pages/brand.ts';
import type { RecentAccountView } from '../sessions/recent-accounts.ts';
import type { SocialPage } from './sign-in-page.ts';

/** CSP: the logo, and forms to the service itself (Forget, whose 303 comes back here). */
export const socialPagePolicy = (page: SocialPage): PagePolicy => ({ images: logoSources(page.brand) });

const hidden = (name: string, value: string | undefined) =>
  value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/** `2026-11-23T18:38:13.000Z` as `2026-11-23 18:38 UTC`. */
const shownTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function recentAccounts(page: SocialPage): string {
  if (page.accounts.length === 0) return '';
  const action = `/auth/social/${encodeURIComponent(page.applicationId)}/forget`;
  const rows = page.accounts.map(
    (account: RecentAccountView) => `<div class="account">
<div>${account.name ? `<strong>${escapeHtml(account.name)}</strong><br>` : ''}${escapeHtml(account.maskedEmail)}<br><span class="note">Last used ${escapeHtml(shownTime(account.lastUsedAt))}</span></div>
<form method="post" action="${escapeHtml(action)}">
${hidden('account', account.userId)}
${hidden('return_to', page.query.returnTo)}
${hidden('state', page.query.appState)}
${hidden('code_challenge', page.query.appChallenge)}
<button type="submit" class="forget" aria-label="Forget ${escapeHtml(account.maskedEmail)}">Forget</button>
</form>
</div>`,
  );
  return `<h2>Recent accounts</h2>
<p class="note">Accounts recently used in this browser to sign in to ${escapeHtml(page.brand.applicationName)}:</p>
${rows.join('\n')}`;
}

export function socialSignInPage(page: SocialPage): string {
  const name = page.brand.applicationName;
  const buttons =
    page.providers.length === 0
      ? `<p class="note">${escapeHtml(name)} offers no social sign-in yet.</p>`
      : page.providers
          .map(
            (provider) =>
              `<a class="provider" href="${escapeHtml(provider.href)}">Continue with ${escapeHtml(provider.label)}</a>`,
          )
          .join('\n');
  return htmlDocument(
    `Sign in to ${name}`,
    `${brandHeader(page.brand)}
<h1>Sign in to ${escapeHtml(name)}</h1>
${buttons}
${recentAccounts(page)}`,
  );
}
