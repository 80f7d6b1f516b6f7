/**
 * The sign-in bridge's two pages (issue 10): the email form and the code form. Plain forms that
 * post to the service's own origin; every value escaped.
 */
import { escapeHtml, htmlDocument, type PagePolicy } from '../../http/html.ts';
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

export function emailPage(brand: Brand, requestId: string): string {
  return htmlDocument(
    `Sign in to ${brand.applicationName}`,
    `${brandHeader(brand)}
<h1>Sign in to continue</h1>
<p class="note">An application asks to connect to <strong>${escapeHtml(brand.applicationName)}</strong> for you. Sign in with your email address: we send you a code.</p>
<form method="post" action="/oauth/login">
${hidden('request', requestId)}
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">Send me a code</button>
</form>`,
  );
}

export function codePage(
  brand: Brand,
  input: { requestId: string; email: string; attemptsLeft?: number | undefined },
): string {
  const wrong =
    input.attemptsLeft === undefined
      ? ''
      : `<p class="error">That code is not right. ${input.attemptsLeft} attempt${input.attemptsLeft === 1 ? '' : 's'} left.</p>`;
  return htmlDocument(
    `Sign in to ${brand.applicationName}`,
    `${brandHeader(brand)}
<h1>Enter your code</h1>
<p class="note">We sent an 8-character code to <strong>${escapeHtml(input.email)}</strong>. It works for 10 minutes.</p>
${wrong}
<form method="post" action="/oauth/login/verify">
${hidden('request', input.requestId)}
${hidden('email', input.email)}
<label for="code">Code</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" inputmode="text" required>
<button type="submit">Sign in</button>
</form>`,
  );
}
