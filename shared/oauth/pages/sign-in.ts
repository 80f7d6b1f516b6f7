/**
 * The sign-in bridge's two pages (docs/oauth.md, "Sign-in bridge"): the email form and the code
 * form. Plain forms that post to the service's own origin; every value escaped.
 */
import { escapeHtml } from '../../html-escape.ts';
import { htmlDocument, type PagePolicy } from '../../html-page.ts';
import type { BridgeChoice } from '../../sessions/recent-accounts.ts';
import { type Brand, brandHeader, logoSources } from './brand.ts';

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/**
 * CSP of both pages: the logo, and forms to the service itself; the code form's also to the client's
 * redirect URI (`clientTarget`): its verify goes on to `/oauth/authorize`, which may redirect there
 * at once (an error such as `access_denied`), and Chromium applies `form-action` to every redirect
 * of the submission.
 */
export const signInPolicy = (brand: Brand, clientTarget?: string): PagePolicy => ({
  images: logoSources(brand),
  formTargets: clientTarget ? [clientTarget] : [],
});

/**
 * The browser's recent accounts: one form each, posting the account's user id (never its
 * address, which the service resolves) to send the code in one click, and beside it a "Forget" form
 * that takes the account off the list (plain forms: no script). No image is shown, so the page's
 * CSP needs no image source beyond the logo (docs/oauth.md, "Recent accounts").
 */
function recentChoices(requestId: string, choices: readonly BridgeChoice[]): string {
  if (choices.length === 0) return '';
  const forms = choices.map((choice) => {
    const label = `${choice.name ? `${escapeHtml(choice.name)} · ` : ''}${escapeHtml(choice.maskedEmail)}`;
    return `<div class="choice">
<form method="post" action="/oauth/login" class="recent">
${hidden('request', requestId)}
${hidden('account', choice.userId)}
<button type="submit">${label}</button>
</form>
<form method="post" action="/oauth/login/forget" class="forget">
${hidden('request', requestId)}
${hidden('account', choice.userId)}
<button type="submit" class="forget" aria-label="Forget ${label}">Forget</button>
</form>
</div>`;
  });
  return `<h2>Recent accounts</h2>
<p class="note">Send a code to one of the accounts recently used in this browser:</p>
${forms.join('\n')}
<h2>Another account</h2>
`;
}

export function emailPage(brand: Brand, requestId: string, choices: readonly BridgeChoice[] = []): string {
  return htmlDocument(
    `Sign in to ${brand.applicationName}`,
    `${brandHeader(brand)}
<h1>Sign in to continue</h1>
<p class="note">An application asks to connect to <strong>${escapeHtml(brand.applicationName)}</strong> for you. Sign in with your email address: we send you a code.</p>
${recentChoices(requestId, choices)}<form method="post" action="/oauth/login">
${hidden('request', requestId)}
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">Send me a code</button>
</form>`,
  );
}

export function codePage(
  brand: Brand,
  input: {
    requestId: string;
    /** Who the code went to: the address typed, or a recent account by its id (shown masked). */
    to: { email: string } | { account: string; masked: string };
    attemptsLeft?: number | undefined;
  },
): string {
  const wrong =
    input.attemptsLeft === undefined
      ? ''
      : `<p class="error">That code is not right. ${input.attemptsLeft} attempt${input.attemptsLeft === 1 ? '' : 's'} left.</p>`;
  const shown = 'email' in input.to ? input.to.email : input.to.masked;
  const who = 'email' in input.to ? hidden('email', input.to.email) : hidden('account', input.to.account);
  return htmlDocument(
    `Sign in to ${brand.applicationName}`,
    `${brandHeader(brand)}
<h1>Enter your code</h1>
<p class="note">We sent an 8-character code to <strong>${escapeHtml(shown)}</strong>. It works for 10 minutes.</p>
${wrong}
<form method="post" action="/oauth/login/verify">
${hidden('request', input.requestId)}
${who}
<label for="code">Code</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" inputmode="text" required>
<button type="submit">Sign in</button>
</form>`,
  );
}
