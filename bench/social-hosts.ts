/**
 * Social sign-in providers for tests and the calls bench (docs/social-sign-in.md): a real OpenID Connect
 * provider (`oauth2-mock-server`) and a GitHub-style OAuth 2.0 provider played by a local HTTPS server with
 * GitHub's paths and answers (`/login/oauth/authorize`, `/login/oauth/access_token`, `/api/v3/user`,
 * `/api/v3/user/emails`: GitHub Enterprise Server's layout). Both are HTTPS on 127.0.0.1 with
 * certificates of one test CA, which `socialEnv` makes the test app trust.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import { type TestCertificates, testCertificates } from './metadata-host.ts';

interface GitHubUser {
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

interface PendingCode {
  user: GitHubUser;
  clientId: string;
  redirectUri: string;
  challenge: string;
}

interface GitHubServer {
  url: string;
  /** The user the next authorization signs in (the provider's own sign-in and consent, skipped). */
  nextUser: GitHubUser;
  /** The next authorization answers this error instead (e.g. `access_denied`). */
  nextError: string | null;
  /** Client ids and secrets the token endpoint accepts. */
  clients: Map<string, string>;
  /** Every token request's form, for tests that check what was sent. */
  tokenRequests: URLSearchParams[];
}

export interface SocialProviders {
  caFile: string;
  /** The test CA's certificate (PEM), for the test's own requests to the providers. */
  caCert: string;
  oidc: OAuth2Server;
  /** The OpenID Connect issuer (`https://localhost:<port>`). */
  issuer: string;
  /** Claims the next ID tokens get (email, email_verified, name...). */
  claims: Record<string, unknown>;
  github: GitHubServer;
  close(): Promise<void>;
}

/** The env a test app needs to reach the two providers. */
export const socialEnv = (providers: SocialProviders): Record<string, string> => ({
  OAUTH_METADATA_ALLOW_LOOPBACK: 'true',
  OAUTH_METADATA_CA_FILE: providers.caFile,
  SOCIAL_GITHUB_URL: providers.github.url,
});

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function json(res: import('node:http').ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

async function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function startGitHub(tls: { key: string; cert: string }): Promise<{ server: Server; state: GitHubServer }> {
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, GitHubUser>();
  const state: GitHubServer = {
    url: '',
    nextUser: { login: 'octo', name: 'Octo Cat', emails: [] },
    nextError: null,
    clients: new Map(),
    tokenRequests: [],
  };
  const server = createServer(tls, async (req, res) => {
    const url = new URL(req.url ?? '/', state.url);
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      if (state.nextError) {
        redirect.searchParams.set('error', state.nextError);
        redirect.searchParams.set('error_description', 'The user has denied your application access.');
      } else {
        const code = randomBytes(10).toString('hex');
        codes.set(code, {
          user: state.nextUser,
          clientId: url.searchParams.get('client_id') ?? '',
          redirectUri: url.searchParams.get('redirect_uri') ?? '',
          challenge: url.searchParams.get('code_challenge') ?? '',
        });
        redirect.searchParams.set('code', code);
      }
      res.writeHead(302, { location: redirect.href });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(await readBody(req));
      state.tokenRequests.push(form);
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const clientId = form.get('client_id') ?? '';
      // GitHub answers its errors with 200 and an `error` field.
      if (!code || state.clients.get(clientId) !== form.get('client_secret') || code.clientId !== clientId) {
        return json(res, 200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      }
      if (
        code.redirectUri !== form.get('redirect_uri') ||
        s256(form.get('code_verifier') ?? '') !== code.challenge
      ) {
        return json(res, 200, {
          error: 'bad_verification_code',
          error_description: 'The code_verifier does not match.',
        });
      }
      const token = `gho_${randomBytes(16).toString('hex')}`;
      tokens.set(token, code.user);
      return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (req.method === 'GET' && url.pathname.startsWith('/api/v3/')) {
      if (!user) return json(res, 401, { message: 'Bad credentials' });
      if (url.pathname === '/api/v3/user')
        return json(res, 200, { login: user.login, id: 1, name: user.name });
      if (url.pathname === '/api/v3/user/emails') {
        return json(
          res,
          200,
          user.emails.map((entry) => ({ ...entry, visibility: null })),
        );
      }
    }
    return json(res, 404, { message: 'Not Found' });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      state.url = `https://localhost:${(server.address() as AddressInfo).port}`;
      resolve({ server, state });
    }),
  );
}

/** `certificates`: a CA another test host shares (two CAs of one name confuse the chain check). */
export async function startSocialProviders(certificates?: TestCertificates): Promise<SocialProviders> {
  const { caCert, key, cert } = certificates ?? (await testCertificates());
  const dir = await mkdtemp(join(tmpdir(), 'doorcode-social-'));
  const caFile = join(dir, 'ca.pem');
  await Promise.all([
    writeFile(caFile, caCert),
    writeFile(join(dir, 'key.pem'), key),
    writeFile(join(dir, 'cert.pem'), cert),
  ]);
  const oidc = new OAuth2Server(join(dir, 'key.pem'), join(dir, 'cert.pem'));
  await oidc.issuer.keys.generate('RS256');
  await oidc.start(0, '127.0.0.1');
  const { port } = oidc.address();
  const issuer = `https://localhost:${port}`;
  oidc.issuer.url = issuer;
  const claims: Record<string, unknown> = {};
  oidc.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, claims);
  });
  const github = await startGitHub({ key, cert });
  return {
    caFile,
    caCert,
    oidc,
    issuer,
    claims,
    github: github.state,
    close: async () => {
      github.server.closeAllConnections();
      await Promise.all([oidc.stop(), new Promise<void>((resolve) => github.server.close(() => resolve()))]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A browser's GET of a provider URL (trusting the test CA), without following redirects. */
export function providerGet(
  providers: SocialProviders,
  url: string,
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', ca: providers.caCert, headers: { accept: 'text/html' } },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The application page's PKCE pair of every test and bench social sign-in (RFC 7636 appendix B's
 * example): the start is given the challenge, the exchange shows the verifier.
 */
export const APP_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
export const APP_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** A start path with the page's challenge added to its query (kept when it holds one already). */
export const withChallenge = (path: string): string =>
  /[?&]code_challenge=/.test(path)
    ? path
    : `${path}${path.includes('?') ? '&' : '?'}code_challenge=${APP_CHALLENGE}`;
