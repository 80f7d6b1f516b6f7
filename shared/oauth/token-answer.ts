/** What both grants of the token endpoint share: reading the form's required fields, and the answer. */
import type * as z from 'zod/mini';
import type { TokenForm, TokenResponse } from '../contracts/oauth-token.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { type IssuedAccessToken, issueAccessToken } from './access-token.ts';
import type { Scope } from './model.ts';

/** RFC 6749 §5.1: the answer of both grants, as its contract declares it. */
export type TokenAnswer = z.output<typeof TokenResponse>;

/** The named form fields, each present and non-empty, or `invalid_request` naming the first missing. */
export function required<K extends keyof TokenForm>(form: TokenForm, names: readonly K[]): Record<K, string> {
  for (const name of names) {
    if (!form[name]) throw fail('oauthInvalidRequest', `${name} is required`);
  }
  return form as Record<K, string>;
}

/** The answer carrying an access token already signed and the refresh token. */
export function answerOf(issued: IssuedAccessToken, refreshToken: string): TokenAnswer {
  return {
    access_token: issued.accessToken,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
    refresh_token: refreshToken,
    scope: issued.claims.scope,
  };
}

/** The access token (the request's one Signer call) and the answer carrying it and the refresh token. */
export async function answer(
  deps: Deps,
  grant: { userId: string; resource: string; scopes: readonly Scope[]; clientId: string; grantId: string },
  refreshToken: string,
): Promise<TokenAnswer> {
  return answerOf(await issueAccessToken(deps, grant), refreshToken);
}
