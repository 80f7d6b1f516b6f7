import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { freshIp, type TestResponse } from './http-client.ts';
import { APP_VERIFIER, type SocialProviders } from './social-providers.ts';
import { createOwnedApplication, manage } from './tenancy.ts';

export const SOCIAL_RETURN_URL = 'https://notes.acme.test/after-sign-in';
export const GITHUB_SECRET = 'gh-secret-of-the-owner';
export const OIDC_SECRET = 'oidc-secret-of-the-owner';

export type SocialApplication = Awaited<ReturnType<typeof createOwnedApplication>>;

/**
 * An application offering GitHub and the test OpenID Connect issuer with its owner's clients
 * (the GitHub client registered at the GitHub-style server), and one registered return URL.
 */
export async function socialApplication(
  app: TestApp,
  providers: SocialProviders,
): Promise<SocialApplication> {
  const owned = await createOwnedApplication(app);
  const githubClient = `gh-${owned.applicationId}`;
  providers.github.clients.set(githubClient, GITHUB_SECRET);
  const configured = await manage(
    app,
    'PATCH',
    `/applications/${owned.applicationId}/configuration`,
    { token: owned.owner.token },
    {
      socialProviders: {
        github: { enabled: true, clientId: githubClient, clientSecret: GITHUB_SECRET },
        oidc: {
          enabled: true,
          clientId: 'notes-client',
          clientSecret: OIDC_SECRET,
          issuer: providers.issuer,
        },
      },
      socialReturnUrls: [SOCIAL_RETURN_URL],
    },
  );
  expect(configured.status, configured.text).toBe(200);
  return owned;
}

/** The next sign-in at the GitHub-style server proves `email` (primary, verified). */
export function githubSignsIn(providers: SocialProviders, email: string, verified = true): void {
  providers.github.nextUser = {
    login: 'octo',
    name: 'Octo Cat',
    emails: [{ email, primary: true, verified }],
  };
}

/** The next ID tokens of the OpenID Connect issuer carry `email` (verified unless told). */
export function oidcSignsIn(providers: SocialProviders, email: string | undefined, verified = true): void {
  for (const claim of Object.keys(providers.claims)) delete providers.claims[claim];
  if (email !== undefined) providers.claims.email = email;
  providers.claims.email_verified = verified;
}

/** `POST /auth/social/exchange` with the application's key. */
export const exchangeCode = (
  app: TestApp,
  apiKey: string,
  code: string,
  verifier = APP_VERIFIER,
): Promise<TestResponse> =>
  app.request('POST', '/auth/social/exchange', {
    headers: { 'x-api-key': apiKey },
    body: { code, code_verifier: verifier },
    ip: freshIp(),
  });
