/**
 * The hosts beside the service that the OAuth and social flows reach (docs/reliability.md, "The
 * harness"): the HTTPS host of the MCP client's metadata document (fixtures/metadata-host.ts) and the
 * two social providers, a real OpenID Connect provider and a GitHub-style one
 * (fixtures/social-hosts.ts), all with certificates of one test CA that the service trusts.
 *
 * The providers answer every sign-in for the address the clients choose, concurrently: GitHub reads
 * its next user when the browser reaches its authorization endpoint, so each trip there holds a
 * lock; the OpenID Connect provider's ID token is signed when the service redeems the code, so the
 * address goes by the `state` of the authorization to its code, and by the code to the token.
 */
import {
  type ClientMetadataServer,
  startClientMetadataServer,
  testCertificates,
} from '../../fixtures/metadata-host.ts';
import {
  providerGet,
  type SocialProviders,
  socialEnv,
  startSocialProviders,
} from '../../fixtures/social-hosts.ts';

/** The MCP client's redirect URI: the browser stops there and reads the code from it. */
export const REDIRECT_URI = 'https://agent.example.com/callback';

export interface ChaosHosts {
  /** The service's settings that let it reach these hosts (loopback, the test CA, the GitHub URL). */
  env: Record<string, string>;
  /** The MCP client's `client_id`: the URL of its metadata document. */
  clientId: string;
  /** The OpenID Connect provider's issuer. */
  oidcIssuer: string;
  /** Lets the GitHub-style provider accept the client `id` with `secret`. */
  githubClient(id: string, secret: string): void;
  /**
   * The browser at the provider's authorization URL `url`, signing in as `email`: the provider's
   * redirect back to the service (its callback URL), or undefined when it answered none.
   */
  signInAt(provider: 'github' | 'oidc', url: string, email: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function startHosts(): Promise<ChaosHosts> {
  const certificates = await testCertificates();
  const metadata: ClientMetadataServer = await startClientMetadataServer(certificates);
  const providers: SocialProviders = await startSocialProviders(certificates);
  const clientId = metadata.serveClient('/chaos-agent.json', {
    client_name: 'Chaos Agent',
    redirect_uris: [REDIRECT_URI],
  });

  // OpenID Connect: state -> address when the browser arrives, code -> address at the redirect,
  // and the address into the ID token the service's code redemption gets.
  const byState = new Map<string, string>();
  const byCode = new Map<string, string>();
  providers.oidc.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
    const email = byState.get(redirect.url.searchParams.get('state') ?? '');
    const code = redirect.url.searchParams.get('code');
    if (email && code) byCode.set(code, email);
  });
  providers.oidc.service.on(
    'beforeTokenSigning',
    (token: { payload: Record<string, unknown> }, req: { body?: Record<string, unknown> }) => {
      const email = byCode.get(String(req.body?.code ?? ''));
      if (email) Object.assign(token.payload, { email, email_verified: true });
    },
  );
  // GitHub: one browser at a time at its authorization endpoint, which reads `nextUser`.
  let github = Promise.resolve();

  return {
    env: socialEnv(providers),
    clientId,
    oidcIssuer: providers.issuer,
    githubClient: (id, secret) => providers.github.clients.set(id, secret),
    async signInAt(provider, url, email) {
      if (provider === 'oidc') {
        const state = new URL(url).searchParams.get('state') ?? '';
        byState.set(state, email);
        try {
          return (await providerGet(providers, url)).location;
        } finally {
          byState.delete(state);
        }
      }
      const turn = github.then(async () => {
        providers.github.nextUser = {
          login: email.split('@')[0] ?? 'chaos',
          name: null,
          emails: [{ email, primary: true, verified: true }],
        };
        return (await providerGet(providers, url)).location;
      });
      github = turn.then(
        () => undefined,
        () => undefined,
      );
      return turn;
    },
    close: async () => {
      await Promise.all([metadata.close(), providers.close()]);
    },
  };
}
