import { htmlBody, pageHeaders } from '../../shared/html-page.ts';
import { http } from '../../shared/http/handler.ts';
import { codePage, signInPolicy } from '../../shared/oauth/pages/sign-in.ts';
import { verifyBridgeSignIn } from '../../shared/oauth/sign-in-bridge.ts';
import * as routes from '../../shared/route-table/oauth-authorize/oauth-sign-in-verify.ts';

export const handler = http(
  routes.oauthSignInVerify,
  async ({ deps, body, client, cookies, remainingMs }) => {
    const { request: requestId, email, account, code } = body;
    const result = await verifyBridgeSignIn(deps, {
      requestId,
      email,
      account,
      code,
      client: { ...client, cookies },
      remainingMs,
    });
    if (result.outcome === 'wrong-code') {
      return {
        status: 400,
        raw: htmlBody(
          codePage(result.brand, { requestId, to: result.to, attemptsLeft: result.attemptsLeft }),
        ),
        headers: pageHeaders(signInPolicy(result.brand, result.clientTarget)),
      };
    }
    return {
      status: 303,
      headers: { location: result.returnTo },
      cookies: result.cookies,
    };
  },
);
