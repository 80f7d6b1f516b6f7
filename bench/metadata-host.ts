/**
 * A host of client ID metadata documents and protected resource metadata (RFC 9728) for tests and
 * the calls bench: a real HTTPS server on 127.0.0.1 whose certificate
 * (for `localhost`, 127.0.0.1 and UNRESOLVABLE_HOST) is signed by a test CA made here with `selfsigned`. A test app
 * trusts that CA and allows loopback metadata hosts through `metadataEnv(server)`; each test
 * registers the paths it needs with the status, headers, body and delay it wants.
 */

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

interface ServedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
}

/**
 * A name the system resolver cannot resolve (RFC 6761: `.test` is never delegated) that the
 * certificate covers: a fetch of it reaches the server only through a `resolve` option's answer.
 */
const UNRESOLVABLE_HOST = 'metadata.doorcode.test';

export interface ClientMetadataServer {
  /** `https://localhost:<port>` */
  url: string;
  /** `https://<UNRESOLVABLE_HOST>:<port>`: the same server, reachable only through a resolver option. */
  unresolvableUrl: string;
  /** A PEM file holding the test CA's certificate. */
  caFile: string;
  /** Answer `path` with `response` from now on. */
  serve(path: string, response: ServedResponse): string;
  /**
   * Serve a valid metadata document at `path` (its `client_id` is its own URL) with `fields` added
   * or replaced; returns the client ID.
   */
  serveClient(path: string, fields?: Record<string, unknown>, headers?: Record<string, string>): string;
  /**
   * Serve the protected resource metadata (RFC 9728) of the resource `<url><path>` at its
   * well-known URL (`/.well-known/oauth-protected-resource<path>`, RFC 9728 §3.1), naming `issuer`
   * as its authorization server, with `fields` added or replaced; returns the resource.
   */
  serveResource(path: string, issuer: string, fields?: Record<string, unknown>): string;
  /** The well-known path of the resource `<url><path>`'s metadata (RFC 9728 §3.1). */
  resourceMetadataPath(path: string): string;
  /** How many requests `path` received. */
  hits(path: string): number;
  close(): Promise<void>;
}

/**
 * RFC 9728 §3.1: the well-known segment goes between the host and the resource's path; a path that
 * is only `/` is dropped.
 */
const resourceMetadataPath = (path: string) =>
  `/.well-known/oauth-protected-resource${path === '/' ? '' : path}`;

/** The env a test app needs to fetch documents from `server`. */
export const metadataEnv = (server: ClientMetadataServer): Record<string, string> => ({
  OAUTH_METADATA_ALLOW_LOOPBACK: 'true',
  OAUTH_METADATA_CA_FILE: server.caFile,
});

/** A test CA and a leaf for localhost, 127.0.0.1 and UNRESOLVABLE_HOST signed by it (PEM). */
export type TestCertificates = Awaited<ReturnType<typeof testCertificates>>;

export async function testCertificates() {
  const notAfterDate = new Date(Date.now() + 2 * 24 * 3600 * 1000);
  // A name of its own: two test CAs trusted together (the metadata host's and the social
  // providers') must not share a subject, or a verifier may pick the other one's key.
  const ca = await generate([{ name: 'commonName', value: `doorcode test CA ${randomUUID()}` }], {
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: UNRESOLVABLE_HOST },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { caCert: ca.cert, key: leaf.private, cert: leaf.cert };
}

/** `certificates`: a CA another test host shares (two CAs of one name confuse the chain check). */
export async function startClientMetadataServer(
  certificates?: TestCertificates,
): Promise<ClientMetadataServer> {
  const { caCert, key, cert } = certificates ?? (await testCertificates());
  const dir = await mkdtemp(join(tmpdir(), 'doorcode-metadata-ca-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, caCert);
  const responses = new Map<string, ServedResponse>();
  const counts = new Map<string, number>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const path = req.url ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const response = responses.get(path) ?? { status: 404, body: { error: 'not found' } };
    const answer = () => {
      const body = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? {});
      const headers = { 'content-type': 'application/json', ...response.headers };
      const chunked = Object.keys(headers).some((name) => name.toLowerCase() === 'transfer-encoding');
      res.writeHead(response.status ?? 200, {
        ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        ...headers,
      });
      res.end(body);
    };
    if (response.delayMs) setTimeout(answer, response.delayMs).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `https://localhost:${port}`;
  const unresolvableUrl = `https://${UNRESOLVABLE_HOST}:${port}`;
  const serve = (path: string, response: ServedResponse) => {
    responses.set(path, response);
    return `${url}${path}`;
  };
  return {
    url,
    unresolvableUrl,
    caFile,
    serve,
    serveClient(path, fields = {}, headers = {}) {
      const clientId = `${url}${path}`;
      return serve(path, {
        headers,
        body: {
          client_id: clientId,
          client_name: 'Test Agent',
          redirect_uris: ['http://127.0.0.1/callback', 'https://agent.example.com/callback'],
          token_endpoint_auth_method: 'none',
          ...fields,
        },
      });
    },
    serveResource(path, issuer, fields = {}) {
      const resource = `${url}${path}`;
      serve(resourceMetadataPath(path), {
        body: { resource, authorization_servers: [issuer], ...fields },
      });
      return resource;
    },
    resourceMetadataPath,
    hits: (path) => counts.get(path) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
