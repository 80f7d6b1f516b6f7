import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PublicJwk } from '../../shared/crypto/signer.ts';

export interface JwksServer {
  /** The JWKS URL. */
  url: string;
  /** How many times the key set was fetched. */
  fetches(): number;
  /** The keys served from now on. */
  serve(keys: PublicJwk[]): void;
  /** Answer every fetch with this status (500, say) instead of the key set; null to serve again. */
  fail(status: number | null): void;
  close(): Promise<void>;
}

/** A JWKS on loopback that counts its fetches: what a verifier sees of the service's key endpoint. */
export async function startJwksServer(keys: PublicJwk[]): Promise<JwksServer> {
  let served = keys;
  let failing: number | null = null;
  let fetches = 0;
  const server = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') {
      response.writeHead(404).end();
      return;
    }
    fetches += 1;
    if (failing !== null) {
      response.writeHead(failing).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    fetches: () => fetches,
    serve: (next) => {
      served = next;
    },
    fail: (status) => {
      failing = status;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
