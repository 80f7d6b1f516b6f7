import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type express from 'express';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { LocalSigner } from '../../shared/crypto/local-signer.ts';
import { expressExample } from '../../verifier/examples/express.ts';
import { honoExample } from '../../verifier/examples/hono.ts';
import { requireAccessToken as expressAccessToken } from '../../verifier/src/express.ts';
import { type AccessTokenEnv, requireAccessToken as honoAccessToken } from '../../verifier/src/hono.ts';
import { createVerifier, type Verifier } from '../../verifier/src/index.ts';
import { type JwksServer, startJwksServer } from '../support/jwks-server.ts';
import { testKeyPair } from '../support/keys.ts';

/**
 * The Express and Hono middlewares through real HTTP on loopback: the example back ends
 * (verifier/examples/) and an access-token route, with tokens from the service's own signer and
 * its JWKS served by a test server.
 */
const ISSUER = 'https://auth.doorcode.test';
const APPLICATION_ID = 'app_notes';
const RESOURCE = 'https://notes.example.test/mcp';
const signer = new LocalSigner(testKeyPair().pem);

let jwks: JwksServer;
let verifier: Verifier;
const servers: Server[] = [];

async function listen(start: (ready: (port: number) => void) => Server): Promise<string> {
  let server: Server | undefined;
  const port = await new Promise<number>((resolve) => {
    server = start(resolve);
  });
  servers.push(server!);
  return `http://127.0.0.1:${port}`;
}

const expressOn = (app: express.Express) =>
  listen((ready) => {
    const server = app.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
    return server;
  });
const honoOn = (app: { fetch: (request: Request) => Response | Promise<Response> }) =>
  listen(
    (ready) =>
      serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => ready(info.port)) as Server,
  );

function token(claims: Record<string, unknown>, typ = 'JWT') {
  const iat = Math.floor(Date.now() / 1000);
  return signJwt(
    signer,
    {
      iss: ISSUER,
      sub: 'usr_1',
      email: 'a@example.test',
      sid: 'ses_1',
      jti: 'jti_1',
      iat,
      exp: iat + 600,
      ...claims,
    },
    typ,
  );
}
const accessClaims = {
  aud: RESOURCE,
  scope: 'auth:read',
  client_id: 'https://client.test/c.json',
  gid: 'grt_1',
};

const get = (url: string, authorization?: string) =>
  fetch(url, { headers: authorization ? { authorization } : {} }).then(async (response) => ({
    status: response.status,
    wwwAuthenticate: response.headers.get('www-authenticate'),
    body: (await response.json()) as any,
  }));

let expressUrl: string;
let honoUrl: string;

beforeAll(async () => {
  jwks = await startJwksServer(await signer.publicKeys());
  verifier = createVerifier({ issuer: ISSUER, jwksUrl: jwks.url, audience: APPLICATION_ID });
  const expressApp = expressExample(verifier);
  expressApp.get('/api/tools', expressAccessToken(verifier, { resource: RESOURCE }), (req, res) => {
    res.json({ scope: (req.auth as { scope: string }).scope });
  });
  expressUrl = await expressOn(expressApp);
  const tools = new Hono<AccessTokenEnv>().get(
    '/api/tools',
    honoAccessToken(verifier, { resource: RESOURCE }),
    (c) => c.json({ scope: c.get('auth').scope }),
  );
  const honoApp = new Hono().route('/', honoExample(verifier)).route('/', tools);
  honoUrl = await honoOn(honoApp);
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await jwks?.close();
});

describe.each([
  ['Express', () => expressUrl],
  ['Hono', () => honoUrl],
])('%s middleware', (_name, urlOf) => {
  it('lets a valid session token of the application through, with its claims on the request', async () => {
    // Act
    const response = await get(`${urlOf()}/api/me`, `Bearer ${await token({ aud: APPLICATION_ID })}`);

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ userId: 'usr_1', email: 'a@example.test', sessionId: 'ses_1' });
  });

  it('answers 401 with the error envelope and a Bearer challenge when no token is sent', async () => {
    // Act
    const response = await get(`${urlOf()}/api/me`);

    // Assess
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
    expect(response.body.error.details.reason).toBe('TOKEN_MISSING');
    expect(response.wwwAuthenticate).toBe('Bearer');
  });

  it('answers 401 invalid_token for a session of another application', async () => {
    // Act
    const response = await get(`${urlOf()}/api/me`, `Bearer ${await token({ aud: 'platform' })}`);

    // Assess
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
    expect(response.body.error.details.reason).toBe('TOKEN_AUDIENCE');
    expect(response.wwwAuthenticate).toBe('Bearer error="invalid_token"');
  });

  it('lets an access token for the resource through its route, and refuses it on the session route', async () => {
    // Prepare
    const accessToken = await token(accessClaims, 'at+jwt');

    // Act
    const tools = await get(`${urlOf()}/api/tools`, `Bearer ${accessToken}`);
    const me = await get(`${urlOf()}/api/me`, `Bearer ${accessToken}`);

    // Assess
    expect(tools.status).toBe(200);
    expect(tools.body).toEqual({ scope: 'auth:read' });
    expect(me.status).toBe(401);
  });
});

describe.each([
  ['Express', (v: Verifier) => expressOn(expressExample(v))],
  ['Hono', (v: Verifier) => honoOn(honoExample(v))],
])('%s middleware when the JWKS cannot be fetched', (_name, start) => {
  it('answers 503 SERVICE_UNAVAILABLE, not 401 (the token may be good)', async () => {
    // Prepare
    const down = await startJwksServer([]);
    down.fail(500);
    const url = await start(createVerifier({ issuer: ISSUER, jwksUrl: down.url, audience: APPLICATION_ID }));

    // Act
    const response = await get(`${url}/api/me`, `Bearer ${await token({ aud: APPLICATION_ID })}`);
    await down.close();

    // Assess
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe.each([
  ['Express', (v: Verifier) => expressOn(expressExample(v))],
  ['Hono', (v: Verifier) => honoOn(honoExample(v))],
])(
  '%s middleware in check-with-service mode when the service answers 200 with no session answer',
  (_name, start) => {
    it.each([
      ['an HTML page', 'text/html', '<html>Sign in to the proxy</html>'],
      ['JSON null', 'application/json', 'null'],
    ])('answers 503 SERVICE_UNAVAILABLE for %s, not 500', async (_what, type, text) => {
      // Prepare: the JWKS is real; GET /auth/session reaches something that is not the service.
      const fetchVia: typeof fetch = (input, init) =>
        String(input).startsWith(jwks.url)
          ? fetch(input, init)
          : Promise.resolve(new Response(text, { status: 200, headers: { 'content-type': type } }));
      const url = await start(
        createVerifier({
          issuer: ISSUER,
          jwksUrl: jwks.url,
          audience: APPLICATION_ID,
          checkWithService: true,
          fetch: fetchVia,
        }),
      );

      // Act
      const response = await get(`${url}/api/me`, `Bearer ${await token({ aud: APPLICATION_ID })}`);

      // Assess
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('SERVICE_UNAVAILABLE');
    });
  },
);
