import { http } from '../../shared/http/handler.ts';
import { htmlBody, pageHeaders } from '../../shared/http/html.ts';
import { emailPage, signInPolicy } from '../../shared/oauth/pages/sign-in.ts';
import { bridgePage } from '../../shared/oauth/sign-in-bridge.ts';
import { routes } from '../../shared/routes.ts';

export const handler = http(routes.oauthSignInPage, async ({ deps, query }) => {
  const brand = await bridgePage(deps, query.request);
  return { raw: htmlBody(emailPage(brand, query.request)), headers: pageHeaders(signInPolicy(brand)) };
});
