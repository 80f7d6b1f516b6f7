import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.ts';
import type { FetchOptions } from '../../shared/net/metadata-fetch.ts';
import { type ClientRefusal, loadClientMetadata } from '../../shared/oauth/client-metadata.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from '../support/client-metadata-server.ts';

let metadata: ClientMetadataServer;
let app: TestApp;
beforeAll(async () => {
  metadata = await startClientMetadataServer();
  app = await startTestApp({ env: metadataEnv(metadata) });
});
afterAll(async () => {
  await app.close();
  await metadata.close();
});

/** The refusal's reason, or a failure naming what was returned instead. */
async function refusal(clientId: string, options?: FetchOptions): Promise<ClientRefusal> {
  try {
    const returned = await loadClientMetadata(app.deps, clientId, options);
    throw new Error(`accepted: ${JSON.stringify(returned)}`);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect({ kind: error.kind, code: error.code, status: error.status }).toEqual({
      kind: 'invalidClient',
      code: 'invalid_client',
      status: 400,
    });
    return error.details?.reason as ClientRefusal;
  }
}

describe('loadClientMetadata: the client_id URL, before any fetch', () => {
  it.each<[string, string, ClientRefusal]>([
    ['http scheme', 'http://localhost/client.json', 'client-id-not-https'],
    ['a relative reference', '/client.json', 'client-id-not-https'],
    ['a fragment', 'https://localhost/client.json#x', 'client-id-fragment'],
    ['an empty fragment', 'https://localhost/client.json#', 'client-id-fragment'],
    ['userinfo', 'https://user@localhost/client.json', 'client-id-userinfo'],
    ['userinfo with a password', 'https://user:pw@localhost/client.json', 'client-id-userinfo'],
    ['an empty userinfo', 'https://@localhost/client.json', 'client-id-userinfo'],
    ['no path', 'https://localhost', 'client-id-no-path'],
    ['the root path', 'https://localhost/', 'client-id-no-path'],
    ['a dot segment', 'https://localhost/a/./client.json', 'client-id-dot-segment'],
    ['a double-dot segment', 'https://localhost/a/../client.json', 'client-id-dot-segment'],
    ['an encoded double-dot segment', 'https://localhost/a/%2E%2e/client.json', 'client-id-dot-segment'],
    ['a trailing dot segment', 'https://localhost/a/..', 'client-id-dot-segment'],
    ['a backslash dot segment', 'https://localhost/a\\..\\client.json', 'client-id-dot-segment'],
    ['no host', 'https:///client.json', 'client-id-invalid'],
    ['a tab a URL parser would drop', 'https://localhost/cli\tent.json', 'client-id-invalid'],
    ['a trailing newline', 'https://localhost/client.json\n', 'client-id-invalid'],
    ['a space', 'https://localhost/my client.json', 'client-id-invalid'],
    [
      'a backslash a URL parser would turn into a slash',
      'https://localhost/a\\client.json',
      'client-id-invalid',
    ],
    ['a host that is not a host', 'https://exa mple.com/client.json', 'client-id-invalid'],
    ['a very long URL', `https://localhost/${'a'.repeat(2100)}`, 'client-id-too-long'],
  ])('refuses %s', async (_case, clientId, reason) => {
    // Prepare
    const path = new URL(metadata.url).pathname;
    const before = metadata.hits(path);

    // Act
    const refused = await refusal(clientId.replace('https://localhost', metadata.url));

    // Assess
    expect(refused).toBe(reason);
    expect(metadata.hits(path)).toBe(before);
  });
});

describe('loadClientMetadata: the fetch', () => {
  it('returns the client named by a valid document', async () => {
    // Prepare
    const clientId = metadata.serveClient('/valid/client.json', {
      client_name: 'Acme Agent',
      client_uri: 'https://acme.example.com',
      logo_uri: 'https://acme.example.com/logo.png',
      redirect_uris: ['http://127.0.0.1/cb', 'com.acme.agent:/oauth/callback'],
    });

    // Act
    const client = await loadClientMetadata(app.deps, clientId);

    // Assess
    expect(client).toEqual({
      clientId,
      clientName: 'Acme Agent',
      clientUri: 'https://acme.example.com',
      logoUri: 'https://acme.example.com/logo.png',
      redirectUris: ['http://127.0.0.1/cb', 'com.acme.agent:/oauth/callback'],
    });
  });

  it('names the client by its host when the document has no client_name, and accepts a charset', async () => {
    // Prepare
    const clientId = metadata.serveClient(
      '/nameless.json',
      { client_name: undefined, token_endpoint_auth_method: undefined },
      { 'content-type': 'application/json; charset=utf-8' },
    );

    // Act
    const client = await loadClientMetadata(app.deps, clientId);

    // Assess
    expect(client.clientName).toBe(new URL(metadata.url).host);
  });

  it.each<[string, number]>([
    ['a 301', 301],
    ['a 302', 302],
    ['a 307', 307],
    ['a 308', 308],
  ])('refuses %s redirect without following it', async (_case, status) => {
    // Prepare
    const target = metadata.serveClient(`/target-${status}.json`);
    const clientId = metadata.serve(`/redirect-${status}.json`, { status, headers: { location: target } });

    // Act
    const refused = await refusal(clientId);

    // Assess
    expect(refused).toBe('redirect');
    expect(metadata.hits(`/target-${status}.json`)).toBe(0);
  });

  it.each<[number]>([[201], [204], [404], [500]])('refuses a %s answer', async (status) => {
    // Prepare
    const clientId = metadata.serve(`/status-${status}.json`, { status, body: {} });

    // Act
    const refused = await refusal(clientId);

    // Assess
    expect(refused).toBe('status');
  });

  it.each<[string]>([['text/html'], ['application/jsonx'], ['text/plain'], ['application/ld+json']])(
    'refuses a %s document',
    async (contentType) => {
      // Prepare
      const clientId = metadata.serve(`/type-${contentType.replace('/', '-')}.json`, {
        headers: { 'content-type': contentType },
        body: '{}',
      });

      // Act
      const refused = await refusal(clientId);

      // Assess
      expect(refused).toBe('content-type');
    },
  );

  it('refuses a body that is not JSON', async () => {
    // Prepare
    const clientId = metadata.serve('/broken.json', { body: '{"client_id": ' });

    // Act
    const refused = await refusal(clientId);

    // Assess
    expect(refused).toBe('not-json');
  });

  it('refuses a document larger than 5 KB, declared or streamed', async () => {
    // Prepare
    const big = metadata.serveClient('/big.json', { padding: 'x'.repeat(6000) });
    const streamed = metadata.serve('/streamed.json', {
      headers: { 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ client_id: 'x', padding: 'x'.repeat(6000) }),
    });

    // Act
    const refusals = [await refusal(big), await refusal(streamed)];

    // Assess
    expect(refusals).toEqual(['too-large', 'too-large']);
  });

  it('accepts a document of exactly 5 KB', async () => {
    // Prepare
    const path = '/exact.json';
    const clientId = `${metadata.url}${path}`;
    const base = JSON.stringify({
      client_id: clientId,
      redirect_uris: ['https://a.example.com/cb'],
      pad: '',
    });
    metadata.serve(path, {
      body: JSON.stringify({
        client_id: clientId,
        redirect_uris: ['https://a.example.com/cb'],
        pad: 'x'.repeat(5 * 1024 - base.length),
      }),
    });

    // Act
    const client = await loadClientMetadata(app.deps, clientId);

    // Assess
    expect(client.clientId).toBe(clientId);
  });

  it('gives up on a slow host at the deadline', async () => {
    // Prepare
    const clientId = metadata.serve('/slow.json', { delayMs: 2000, body: {} });

    // Act
    const refused = await refusal(clientId, { timeoutMs: 100 });

    // Assess
    expect(refused).toBe('timeout');
  });

  it('refuses a host whose certificate it does not trust', async () => {
    // Prepare
    const clientId = metadata.serveClient('/untrusted.json');
    const untrusting = await startTestApp({ env: { OAUTH_METADATA_ALLOW_LOOPBACK: 'true' } });

    // Act
    let refused: unknown;
    try {
      await loadClientMetadata(untrusting.deps, clientId);
    } catch (error) {
      refused = error;
    } finally {
      await untrusting.close();
    }

    // Assess
    expect(refused).toMatchObject({ code: 'invalid_client', details: { reason: 'unreachable' } });
  });

  it('refuses a loopback host unless OAUTH_METADATA_ALLOW_LOOPBACK is set', async () => {
    // Prepare
    const clientId = metadata.serveClient('/loopback.json');
    const strict = await startTestApp({ env: { OAUTH_METADATA_CA_FILE: metadata.caFile } });

    // Act
    let refused: unknown;
    try {
      await loadClientMetadata(strict.deps, clientId);
    } catch (error) {
      refused = error;
    } finally {
      await strict.close();
    }

    // Assess
    expect(refused).toMatchObject({ code: 'invalid_client', details: { reason: 'special-address' } });
    expect(metadata.hits('/loopback.json')).toBe(0);
  });
});

describe('loadClientMetadata: the document', () => {
  it.each<[string, Record<string, unknown>, ClientRefusal]>([
    ['another client_id', { client_id: 'https://evil.example.com/client.json' }, 'client-id-mismatch'],
    ['no client_id', { client_id: undefined }, 'client-id-mismatch'],
    ['no redirect_uris', { redirect_uris: undefined }, 'redirect-uris-missing'],
    ['empty redirect_uris', { redirect_uris: [] }, 'redirect-uris-missing'],
    ['a string redirect_uris', { redirect_uris: 'https://a.example.com/cb' }, 'redirect-uris-missing'],
    ['a relative redirect URI', { redirect_uris: ['/cb'] }, 'redirect-uri-invalid'],
    [
      'a redirect URI with a fragment',
      { redirect_uris: ['https://a.example.com/cb#x'] },
      'redirect-uri-invalid',
    ],
    ['a redirect URI that is not a string', { redirect_uris: [42] }, 'redirect-uri-invalid'],
    [
      'an http redirect URI on a public host',
      { redirect_uris: ['http://a.example.com/cb'] },
      'redirect-uri-invalid',
    ],
    [
      'an http redirect URI on a host named like loopback',
      { redirect_uris: ['http://127.0.0.1.example.com/cb'] },
      'redirect-uri-invalid',
    ],
    ['a javascript: redirect URI', { redirect_uris: ['javascript:alert(1)'] }, 'redirect-uri-invalid'],
    ['a data: redirect URI', { redirect_uris: ['data:text/html,<p>x</p>'] }, 'redirect-uri-invalid'],
    ['a file: redirect URI', { redirect_uris: ['file:///etc/passwd'] }, 'redirect-uri-invalid'],
    ['a vbscript: redirect URI', { redirect_uris: ['vbscript:msgbox(1)'] }, 'redirect-uri-invalid'],
    ['an about: redirect URI', { redirect_uris: ['about:blank'] }, 'redirect-uri-invalid'],
    [
      'a blob: redirect URI',
      { redirect_uris: ['blob:https://a.example.com/0b7c1f2e-0000-4000-8000-000000000000'] },
      'redirect-uri-invalid',
    ],
    [
      'one bad redirect URI among good ones',
      { redirect_uris: ['https://a.example.com/cb', 'javascript:alert(1)'] },
      'redirect-uri-invalid',
    ],
    // An allow-list (RFC 8252 §7): every scheme not named there is refused, not only those listed above.
    ['an ftp: redirect URI', { redirect_uris: ['ftp://files.example.com/cb'] }, 'redirect-uri-invalid'],
    [
      'a view-source:https: redirect URI',
      { redirect_uris: ['view-source:https://a.example.com/cb'] },
      'redirect-uri-invalid',
    ],
    ['a mailto: redirect URI', { redirect_uris: ['mailto:a@example.com'] }, 'redirect-uri-invalid'],
    [
      'a single-word private-use scheme (not reverse-domain, RFC 8252 §7.1)',
      { redirect_uris: ['myapp:/cb'] },
      'redirect-uri-invalid',
    ],
    [
      'a single-word private-use scheme with a host',
      { redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] },
      'redirect-uri-invalid',
    ],
    [
      'an https redirect URI without //',
      { redirect_uris: ['https:a.example.com/cb'] },
      'redirect-uri-invalid',
    ],
    ['client_secret_basic', { token_endpoint_auth_method: 'client_secret_basic' }, 'auth-method'],
    ['client_secret_post', { token_endpoint_auth_method: 'client_secret_post' }, 'auth-method'],
    ['private_key_jwt', { token_endpoint_auth_method: 'private_key_jwt' }, 'auth-method'],
    ['a client_secret', { client_secret: 's3cret' }, 'client-secret'],
  ])('refuses a document with %s', async (_case, fields, reason) => {
    // Prepare
    const clientId = metadata.serveClient(`/document-${reason}-${encodeURIComponent(_case)}.json`, fields);

    // Act
    const refused = await refusal(clientId);

    // Assess
    expect(refused).toBe(reason);
  });

  it.each([
    ['https', 'https://a.example.com/cb'],
    ['http on 127.0.0.1', 'http://127.0.0.1:8765/cb'],
    ['http on [::1]', 'http://[::1]:8765/cb'],
    ['http on localhost', 'http://localhost/cb'],
    ['a private-use scheme with a dot (RFC 8252 §7.1)', 'com.example.app:/cb'],
    ['a private-use scheme with a dot and a host', 'com.example.app://callback/cb'],
  ])('accepts a redirect URI: %s', async (_case, redirectUri) => {
    // Prepare
    const clientId = metadata.serveClient(`/redirect-ok-${encodeURIComponent(_case)}.json`, {
      redirect_uris: [redirectUri],
    });

    // Act
    const client = await loadClientMetadata(app.deps, clientId);

    // Assess
    expect(client.redirectUris).toEqual([redirectUri]);
  });

  it('names the refused redirect URI and why in the error description', async () => {
    // Prepare
    const clientId = metadata.serveClient('/redirect-described.json', {
      redirect_uris: ['https://a.example.com/cb', 'ftp://files.example.com/"cb"'],
    });

    // Act
    const refused = await loadClientMetadata(app.deps, clientId).catch((error: unknown) => error);

    // Assess
    expect(refused).toBeInstanceOf(AppError);
    // RFC 6749 §5.2: error_description has no `"`; the URI is shown with `?` for it.
    expect((refused as AppError).message).toBe(
      'redirect_uris[1] (ftp://files.example.com/?cb?) has the scheme ftp:, which is not https, http on a loopback host, or a private-use scheme in reverse-domain form such as com.example.app:',
    );
  });

  it('refuses a document that is not an object', async () => {
    // Prepare
    const clientId = metadata.serve('/array.json', { body: '[]' });

    // Act
    const refused = await refusal(clientId);

    // Assess
    expect(refused).toBe('not-an-object');
  });

  it('compares client_id exactly: a document naming the URL without its query is refused', async () => {
    // Prepare
    const path = '/query.json?v=1';
    const clientId = metadata.serve(path, {
      body: { client_id: `${metadata.url}/query.json`, redirect_uris: ['https://a.example.com/cb'] },
    });

    // Act
    const refused = await refusal(clientId);

    // Assess
    expect(refused).toBe('client-id-mismatch');
  });
});

describe('loadClientMetadata: special-use addresses', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp();
  });
  afterAll(() => strict.close());

  it.each([
    ['loopback by an odd IPv4 spelling (hex)', 'https://0x7f.1/client.json'],
    ['loopback as one number', 'https://2130706433/client.json'],
    ['loopback shortened', 'https://127.1/client.json'],
    ['loopback in IPv6', 'https://[::1]/client.json'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/client.json'],
    ['the instance metadata service', 'https://169.254.169.254/latest/meta-data'],
    ['a private address', 'https://10.0.0.1/client.json'],
    ['an octal private address', 'https://012.0.0.1/client.json'],
    ['NAT64 of a private address', 'https://[64:ff9b::c0a8:101]/client.json'],
    ['6to4 of link-local', 'https://[2002:a9fe:a9fe::]/client.json'],
    ['the unspecified address', 'https://0.0.0.0/client.json'],
  ])('refuses an IP literal: %s, without connecting', async (_case, clientId) => {
    // Prepare: no loopback allowance, a resolver that fails the test if asked
    const resolve = async () => {
      throw new Error('an IP literal is never resolved');
    };

    // Act
    const refused = await loadClientMetadata(strict.deps, clientId, { resolve }).catch((error) => error);

    // Assess
    expect(refused).toMatchObject({ code: 'invalid_client', details: { reason: 'special-address' } });
  });

  it.each<[string, string[]]>([
    ['the instance metadata service', ['169.254.169.254']],
    ['a private address', ['10.1.2.3']],
    ['CGNAT', ['100.64.0.7']],
    ['a public and a private address (any one refuses)', ['93.184.215.14', '192.168.0.10']],
    ['IPv6 unique local', ['fd00::5']],
    ['NAT64 of loopback', ['64:ff9b::7f00:1']],
    ['IPv4-mapped private', ['::ffff:10.0.0.1']],
    ['private, even with loopback allowed', ['127.0.0.1', '10.0.0.1']],
  ])('refuses a hostname that resolves to %s', async (_case, addresses) => {
    // Prepare
    const clientId = 'https://metadata.example.com/client.json';
    const resolve = async () => addresses;

    // Act
    const refused = await refusal(clientId, { resolve });

    // Assess
    expect(refused).toBe('special-address');
  });

  it('refuses a hostname that does not resolve', async () => {
    // Prepare
    const resolve = async (): Promise<string[]> => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };

    // Act
    const refused = await refusal('https://nowhere.example.com/client.json', { resolve });

    // Assess
    expect(refused).toBe('unresolvable');
  });

  it('resolves the host once and connects only to the address it checked, never to a fresh lookup', async () => {
    // Prepare: the checked answer is a loopback address the server does not listen on, while the
    // system resolver would answer localhost with the server's own 127.0.0.1 (a rebinding the other way).
    const clientId = metadata.serveClient('/rebinding.json');
    const asked: string[] = [];
    const resolve = async (hostname: string) => {
      asked.push(hostname);
      return ['127.0.0.2'];
    };

    // Act
    const refused = await refusal(clientId, { resolve });

    // Assess
    expect(refused).toBe('unreachable');
    expect(asked).toEqual(['localhost']);
    expect(metadata.hits('/rebinding.json')).toBe(0);
  });

  it('reaches a host the system resolver cannot resolve through the checked answer alone', async () => {
    // Prepare
    const path = '/unresolvable.json';
    const clientId = `${metadata.unresolvableUrl}${path}`;
    metadata.serve(path, {
      body: { client_id: clientId, redirect_uris: ['https://agent.example.com/callback'] },
    });
    const resolve = async () => ['127.0.0.1'];

    // Act: first with the system resolver (a failure is never cached), then with the option
    const withoutResolver = await refusal(clientId);
    const client = await loadClientMetadata(app.deps, clientId, { resolve });

    // Assess
    expect(client.clientId).toBe(clientId);
    expect(withoutResolver).toBe('unresolvable');
  });

  it('tries the checked addresses in turn: the host answers on its IPv4 address only', async () => {
    // Prepare: the document host listens on 127.0.0.1, not on ::1, under a name only the resolver knows
    const path = '/both-families.json';
    const clientId = `${metadata.unresolvableUrl}${path}`;
    metadata.serve(path, {
      body: { client_id: clientId, redirect_uris: ['https://agent.example.com/callback'] },
    });
    const resolve = async () => ['::1', '127.0.0.1'];

    // Act
    const client = await loadClientMetadata(app.deps, clientId, { resolve });

    // Assess
    expect(client.clientId).toBe(clientId);
  });
});

describe('loadClientMetadata: the cache', () => {
  const second = { client_name: 'Renamed Agent' };

  it('keeps a document for its max-age, then fetches it again', async () => {
    // Prepare
    const clientId = metadata.serveClient(
      '/cache/max-age.json',
      {},
      { 'cache-control': 'public, max-age=60' },
    );
    await loadClientMetadata(app.deps, clientId);
    metadata.serveClient('/cache/max-age.json', second, { 'cache-control': 'max-age=60' });

    // Act
    app.clock.advance(59_000);
    const within = await loadClientMetadata(app.deps, clientId);
    app.clock.advance(2_000);
    const after = await loadClientMetadata(app.deps, clientId);

    // Assess
    expect([within.clientName, after.clientName]).toEqual(['Test Agent', 'Renamed Agent']);
    expect(metadata.hits('/cache/max-age.json')).toBe(2);
  });

  it('keeps a document without Cache-Control for 5 minutes', async () => {
    // Prepare
    const clientId = metadata.serveClient('/cache/default.json');
    await loadClientMetadata(app.deps, clientId);

    // Act
    app.clock.advance(299_000);
    await loadClientMetadata(app.deps, clientId);
    const cachedHits = metadata.hits('/cache/default.json');
    app.clock.advance(2_000);
    await loadClientMetadata(app.deps, clientId);

    // Assess
    expect([cachedHits, metadata.hits('/cache/default.json')]).toEqual([1, 2]);
  });

  it('keeps a document at most 24 hours whatever its max-age', async () => {
    // Prepare
    const clientId = metadata.serveClient('/cache/long.json', {}, { 'cache-control': 'max-age=31536000' });
    await loadClientMetadata(app.deps, clientId);

    // Act
    app.clock.advance(24 * 3600 * 1000 - 1000);
    await loadClientMetadata(app.deps, clientId);
    const cachedHits = metadata.hits('/cache/long.json');
    app.clock.advance(2_000);
    await loadClientMetadata(app.deps, clientId);

    // Assess
    expect([cachedHits, metadata.hits('/cache/long.json')]).toEqual([1, 2]);
  });

  it.each([['no-store'], ['no-cache'], ['max-age=0'], ['private, no-store, max-age=600']])(
    'does not keep a document sent with Cache-Control: %s',
    async (cacheControl) => {
      // Prepare
      const path = `/cache/${encodeURIComponent(cacheControl)}.json`;
      const clientId = metadata.serveClient(path, {}, { 'cache-control': cacheControl });

      // Act
      await loadClientMetadata(app.deps, clientId);
      await loadClientMetadata(app.deps, clientId);

      // Assess
      expect(metadata.hits(path)).toBe(2);
    },
  );

  it('never keeps a failure: a fixed document is used at once', async () => {
    // Prepare
    const path = '/cache/fixed.json';
    const clientId = metadata.serve(path, { status: 500, body: {} });
    expect(await refusal(clientId)).toBe('status');
    metadata.serveClient(path);

    // Act
    const client = await loadClientMetadata(app.deps, clientId);

    // Assess
    expect(client.clientId).toBe(clientId);
    expect(metadata.hits(path)).toBe(2);
  });

  it('never keeps a document it refused for its content', async () => {
    // Prepare
    const path = '/cache/secret.json';
    const clientId = metadata.serveClient(path, { client_secret: 'x' }, { 'cache-control': 'max-age=3600' });
    expect(await refusal(clientId)).toBe('client-secret');
    metadata.serveClient(path, {}, { 'cache-control': 'max-age=3600' });

    // Act
    const client = await loadClientMetadata(app.deps, clientId);

    // Assess
    expect(client.clientId).toBe(clientId);
  });
});
