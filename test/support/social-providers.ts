/**
 * Social sign-in for tests (docs/social-sign-in.md): the two providers live in bench/ (the calls bench drives
 * the social routes with them too, and bench may not import test/); the browser's trips are here.
 */

import type { TestCertificates } from '../../fixtures/metadata-host.ts';
import {
  providerGet,
  type SocialProviders,
  socialEnv,
  startSocialProviders,
  withChallenge,
} from '../../fixtures/social-hosts.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import type { TestResponse } from './http-client.ts';

export {
  APP_CHALLENGE,
  APP_VERIFIER,
  type SocialProviders,
  socialEnv,
  startSocialProviders,
  withChallenge,
} from '../../fixtures/social-hosts.ts';

export interface SocialTestOptions extends TestAppOptions {
  /** The test CA's certificates, when the test serves https hosts of its own beside the providers. */
  certificates?: TestCertificates;
  /** Hears every answer of `app.request` (a test that looks for the owner's secrets in all of them). */
  onAnswer?: (answer: TestResponse) => void;
}

/**
 * The two local providers, then the service configured to reach them (`options` as startTestApp
 * takes them, their `env` over the providers'). The app's `close` stops the providers too.
 */
export async function startSocialTestApp(
  options: SocialTestOptions = {},
): Promise<{ app: TestApp; providers: SocialProviders }> {
  const { certificates, onAnswer, ...appOptions } = options;
  const providers = await startSocialProviders(certificates);
  const started = await startTestApp({
    ...appOptions,
    env: { ...socialEnv(providers), ...appOptions.env },
  }).catch(async (error: unknown) => {
    await providers.close();
    throw error;
  });
  const app: TestApp = {
    ...started,
    request: async (...args) => {
      const answer = await started.request(...args);
      onAnswer?.(answer);
      return answer;
    },
    close: async () => {
      await started.close();
      await providers.close();
    },
  };
  return { app, providers };
}

/**
 * The cookie of the test's browser: its social sign-in binding (shared/social/browser-binding.ts),
 * which a start keeps when the browser already holds one, so every start of a test is bound to it
 * and a callback sent with it is the same browser's.
 */
export const browserCookie = (app: TestApp): string =>
  `__Host-${app.deps.config.SERVICE_NAME}.social_binding=${'B'.repeat(43)}`;

/** The service-side trip of one social sign-in, as a browser makes it. */
export interface SocialTrip {
  /** The start's answer (302 to the provider, or an error page). */
  start: TestResponse;
  /** The callback's answer (303 to the return URL, or an error page); undefined when the start failed. */
  callback?: TestResponse;
  /** The return URL the browser lands on, with `code` and `state`. */
  landed?: URL;
}

/**
 * A browser's start and its visit to the provider: the start's answer and, when it sent the
 * browser on, the callback path (with the provider's query) the provider sent it back to.
 */
export async function startAtProvider(
  app: TestApp,
  providers: SocialProviders,
  input: { applicationId: string; provider: string; query?: string; ip?: string; cookies?: string[] },
): Promise<{ start: TestResponse; callbackPath?: string }> {
  const headers = { cookie: [browserCookie(app), ...(input.cookies ?? [])].join('; ') };
  const path = `/auth/social/${input.applicationId}/${input.provider}${input.query ?? ''}`;
  // A query with the page's own challenge (the SDK's start URL) keeps it; the others get APP_CHALLENGE.
  const start = await app.request('GET', withChallenge(path), {
    headers,
    ...(input.ip ? { ip: input.ip } : {}),
  });
  if (start.status !== 302) return { start };
  const atProvider = await providerGet(providers, start.headers.location as string);
  const back = new URL(atProvider.location as string);
  return { start, callbackPath: `${back.pathname}${back.search}` };
}

/** Sends a browser through start, the provider and the callback (the provider's own pages skipped). */
export async function socialTrip(
  app: TestApp,
  providers: SocialProviders,
  input: { applicationId: string; provider: string; query?: string; ip?: string; cookies?: string[] },
): Promise<SocialTrip> {
  const { start, callbackPath } = await startAtProvider(app, providers, input);
  if (callbackPath === undefined) return { start };
  const headers = { cookie: [browserCookie(app), ...(input.cookies ?? [])].join('; ') };
  const callback = await app.request('GET', callbackPath, {
    headers,
    ...(input.ip ? { ip: input.ip } : {}),
  });
  return {
    start,
    callback,
    ...(callback.status === 303 ? { landed: new URL(callback.headers.location as string) } : {}),
  };
}
