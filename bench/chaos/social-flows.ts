/**
 * The chaos clients' social sign-in flows (docs/social-sign-in.md): an end user of the client's
 * application signs in with the GitHub-style or the OpenID Connect provider (bench/chaos/hosts.ts),
 * as a browser and the application's page do it without a browser engine: the start (PKCE challenge
 * of the page, the binding cookie), the provider's redirect back, the callback, and the page's
 * exchange of the one-time code with its verifier and public key. Then the social page and its
 * Forget form, with the browser's recent accounts.
 *
 * What it checks: the first sign-in of an address creates its account, and every later one (social
 * or by code) reaches the same (one account per address per scope); a session told made works; a
 * start, a callback of a fresh start and the exchange of a fresh code are never refused.
 */
import { APP_CHALLENGE, APP_VERIFIER } from '../../fixtures/social-hosts.ts';
import type { ChaosHosts } from './hosts.ts';
import { Browser, type ClientKit, type EndUser, form, isAmbiguous, type Outcome, said } from './kit.ts';

/** The application's one registered return URL (its configuration, set up by the client). */
export const SOCIAL_RETURN_URL = 'https://app.chaos.test/after-sign-in';
const STARTS = 3;

export class SocialFlows {
  readonly #browser = new Browser();

  constructor(
    private readonly kit: ClientKit,
    private readonly hosts: ChaosHosts,
  ) {}

  /** The page's query, which the social page and its Forget form carry on. */
  #pageQuery(state: string): string {
    return new URLSearchParams({
      return_to: SOCIAL_RETURN_URL,
      state,
      code_challenge: APP_CHALLENGE,
      code_challenge_method: 'S256',
    }).toString();
  }

  /**
   * A sign-in with a provider, of a new address or of an end user the client knows (signed in by
   * code or socially before): the same account either way.
   */
  async signIn(): Promise<Outcome> {
    const flow = 'social.signIn';
    const { ledger } = this.kit;
    const provider = this.kit.random() < 0.5 ? 'github' : 'oidc';
    const applicationId = this.kit.application.id;
    const known =
      this.kit.random() < 0.5
        ? this.kit.pick(
            this.kit.endUsers.filter(
              (user) => user.belief?.state === 'exists' && user.belief.disabled === false,
            ),
          )
        : undefined;
    const user: EndUser = known ?? {
      email: `social-${this.kit.id}-${this.kit.serial()}-${Date.now()}@chaos.test`,
      starts: 0,
    };
    if (!known) this.kit.endUsers.push(user);
    const appState = `app-${this.kit.serial()}`;
    const params = { applicationId, provider };
    // Each start keeps a state of its own: starting again is safe.
    const start = () =>
      this.kit.call(flow, 'socialStart', params, {
        query: this.#pageQuery(appState),
        headers: this.#browser.header(),
      });
    let started = await start();
    for (let tries = 0; isAmbiguous(started) && tries < STARTS; tries++) started = await start();
    if (isAmbiguous(started)) return 'ambiguous';
    this.#browser.keep(started);
    const toProvider = started.status === 302 ? String(started.headers.location ?? '') : '';
    if (
      !ledger.expect(
        'a social start redirects to its provider',
        toProvider.startsWith('https://'),
        () => `the ${provider} start answered ${started.status}`,
        started.requestIds,
      )
    )
      return 'refused';
    const callback = await this.hosts.signInAt(provider, toProvider, user.email);
    if (!callback) throw new Error(`the ${provider} provider did not send the browser back`);
    const landed = await this.kit.call(flow, 'socialCallback', params, {
      query: new URL(callback).search.slice(1),
      headers: this.#browser.header(),
    });
    // docs/social-sign-in.md: a callback that got past its state spent it, whatever follows.
    if (isAmbiguous(landed)) return 'ambiguous';
    this.#browser.keep(landed);
    const back = landed.status === 303 ? new URL(String(landed.headers.location)) : undefined;
    const code = back?.searchParams.get('code') ?? undefined;
    if (
      !ledger.expect(
        'a callback of a fresh social start lands on the return URL',
        back !== undefined &&
          `${back.origin}${back.pathname}` === SOCIAL_RETURN_URL &&
          code !== undefined &&
          back.searchParams.get('state') === appState,
        () => `the ${provider} callback answered ${said(landed)}`,
        [...started.requestIds, ...landed.requestIds],
      )
    )
      return 'refused';

    // The page exchanges the code: the session, as a verify answers it.
    const scope = applicationId;
    const agent = `chaos/${this.kit.id}/social/${this.kit.serial()}`;
    ledger.attemptAgents.set(agent, { scope, email: user.email, told: false });
    const counts = ledger.signInOf(scope);
    const exchanged = await this.kit.call(
      flow,
      'socialExchange',
      {},
      {
        headers: { 'x-api-key': this.kit.application.socialKey, 'user-agent': agent },
        body: { code, code_verifier: APP_VERIFIER },
      },
    );
    // The exchange spends the code: it is never sent again.
    if (isAmbiguous(exchanged)) {
      counts.ambiguous++;
      return 'ambiguous';
    }
    if (
      !ledger.expect(
        'a fresh social code is exchanged',
        exchanged.status === 200,
        () => `the exchange answered ${exchanged.status} ${exchanged.code ?? ''}`,
        [...landed.requestIds, ...exchanged.requestIds],
      )
    )
      return 'refused';
    counts.told++;
    ledger.attemptAgents.set(agent, { scope, email: user.email, told: true });
    const token = exchanged.body.token as string;
    const userId = exchanged.body.user.id as string;
    const session = ledger.signedIn(user, scope, exchanged, `with ${provider}`);
    this.kit.hold(session, token);
    // Its session works at once.
    const seen = await this.kit.call(flow, 'session', {}, { headers: { authorization: `Bearer ${token}` } });
    if (!isAmbiguous(seen))
      ledger.expect(
        "a social sign-in's session works",
        seen.status === 200 && seen.body?.user?.id === userId,
        () => `GET /auth/session of a social sign-in answered ${seen.status}`,
        [...exchanged.requestIds, ...seen.requestIds],
      );
    return 'ok';
  }

  /**
   * The application's social sign-in page with the browser's recent accounts (docs/api.md, Social
   * sign-in page), and one of them forgotten with its Forget form.
   */
  async page(): Promise<Outcome> {
    const flow = 'social.page';
    const applicationId = this.kit.application.id;
    const appState = `app-${this.kit.serial()}`;
    const page = await this.kit.call(
      flow,
      'socialPage',
      { applicationId },
      {
        query: this.#pageQuery(appState),
        headers: this.#browser.header(),
      },
    );
    if (isAmbiguous(page)) return 'ambiguous';
    if (page.status !== 200) return 'refused';
    const accounts = [...page.text.matchAll(/name="account" value="([^"]+)"/g)].map((match) => match[1]!);
    const account = this.kit.pick(accounts);
    if (!account) return 'ok';
    const forget = form({
      account,
      code_challenge: APP_CHALLENGE,
      return_to: SOCIAL_RETURN_URL,
      state: appState,
    });
    const forgotten = await this.kit.call(
      flow,
      'socialForget',
      { applicationId },
      {
        raw: forget.raw,
        headers: {
          ...forget.contentType,
          origin: new URL(this.kit.issuer).origin,
          'sec-fetch-site': 'same-origin',
          ...this.#browser.header(),
        },
      },
    );
    if (isAmbiguous(forgotten)) return 'ambiguous';
    this.#browser.keep(forgotten);
    return forgotten.status === 303 ? 'ok' : 'refused';
  }
}
