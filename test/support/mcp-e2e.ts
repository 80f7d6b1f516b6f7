import { freePort } from '../../shared/local/ports.ts';
import { startTestApp, type TestApp } from './app.ts';
import {
  type ClientMetadataServer,
  metadataEnv,
  startClientMetadataServer,
} from './client-metadata-server.ts';
import { signIn } from './sign-in.ts';
import { createOwnedApplication } from './tenancy.ts';

/** What an MCP client end to end needs: the service, its application and endpoint, the client's identity. */
export interface McpClientWorld {
  metadata: ClientMetadataServer;
  app: TestApp;
  owned: Awaited<ReturnType<typeof createOwnedApplication>>;
  endUser: Awaited<ReturnType<typeof signIn>>;
  /** The URL of the client's metadata document: its `client_id` (docs/oauth.md, Client ID metadata documents). */
  clientId: string;
  /** The client's loopback redirect URI. */
  redirectUri: string;
  /** `<ISSUER>/mcp/<applicationId>`, the only URL a client is given. */
  endpoint: URL;
  close: () => Promise<void>;
}

/**
 * The service on a known port whose ISSUER is that origin, so every URL the metadata names is one
 * the client reaches; an owned application with one end user; a client ID metadata document served
 * from `path` naming a loopback redirect URI at `callbackPath`.
 */
export async function startMcpClientWorld(client: {
  name: string;
  path: string;
  callbackPath: string;
}): Promise<McpClientWorld> {
  const metadata = await startClientMetadataServer();
  const port = await freePort();
  const app = await startTestApp({
    port,
    env: { ...metadataEnv(metadata), ISSUER: `http://127.0.0.1:${port}` },
  });
  const redirectUri = `http://127.0.0.1:${await freePort()}${client.callbackPath}`;
  const clientId = metadata.serveClient(client.path, {
    client_name: client.name,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  const owned = await createOwnedApplication(app, 'Acme Notes');
  const endUser = await signIn(app, undefined, { 'x-api-key': owned.publicKey });
  const endpoint = new URL(`${app.url}/mcp/${owned.applicationId}`);
  const close = async () => {
    await app.close();
    await metadata.close();
  };
  return { metadata, app, owned, endUser, clientId, redirectUri, endpoint, close };
}
