import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OAuthDiscoveryState, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { ALL_TOOLS, everyToolCall } from '../support/mcp.ts';
import { type McpClientWorld, startMcpClientWorld } from '../support/mcp-e2e.ts';
import { MemoryOAuthProvider } from '../support/mcp-oauth-provider.ts';
import { authorizeInBrowser, newBrowser } from '../support/oauth-flow.ts';

/**
 * The MCP clients of the 2025-era handshake (docs/mcp.md, Protocol) end to end against the local
 * runtime, each given only the endpoint URL and going through the whole OAuth flow: the official
 * 1.x SDK client (`@modelcontextprotocol/sdk`, revision 2025-11-25) and the MCP Inspector CLI run
 * as a child process, each naming itself by its client ID metadata document (no registration). The user's side of the authorization is driven
 * over HTTP (test/support/oauth-flow.ts).
 */

let world: McpClientWorld;
let app: TestApp;
let owned: McpClientWorld['owned'];
let endUserId: string;
let clientId: string;
let redirectUri: string;
let endpoint: URL;

beforeAll(async () => {
  world = await startMcpClientWorld({
    name: 'Legacy Agent',
    path: '/legacy-client.json',
    callbackPath: '/oauth/callback',
  });
  ({ app, owned, clientId, redirectUri, endpoint } = world);
  endUserId = world.endUser.body.user.id;
}, 60_000);
afterAll(() => world?.close());

describe('the official 1.x MCP client (revision 2025-11-25)', () => {
  it('meets the 401, authorizes through the bridge and consent, lists all seven tools and calls each', async () => {
    // Prepare
    const provider = new MemoryOAuthProvider<OAuthTokens, OAuthClientInformationMixed, OAuthDiscoveryState>(
      clientId,
      redirectUri,
    );
    const probe = new Client({ name: 'doorcode-e2e-v1', version: '1.0.0' });
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });

    // Act: the handshake meets the 401 and hands over an authorization URL; the user authorizes;
    // the code is exchanged; a fresh transport with the same provider connects with the token.
    const refused = await probe.connect(first).then(
      () => null,
      (error: unknown) => error,
    );
    const answer = await authorizeInBrowser(app, provider.authorizationUrl as URL, owned.owner.email, {
      browser: newBrowser(),
    });
    await first.finishAuth(answer.code as string);
    await probe.close();
    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    const client = new Client({ name: 'doorcode-e2e-v1', version: '1.0.0' });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    const results = [];
    for (const call of everyToolCall(endUserId)) results.push(await client.callTool(call));
    await client.close();

    // Assess
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(answer.state).toBe(provider.sentState);
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toBeUndefined();
    expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['auth:read', 'auth:write']);
    expect(tools).toEqual(ALL_TOOLS);
    expect(results.map((result) => result.isError ?? false)).toEqual(ALL_TOOLS.map(() => false));
    expect(results.every((result) => typeof result.structuredContent === 'object')).toBe(true);
  }, 60_000);
});

const inspectorCli = join(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);

/** One Inspector CLI run: its exit code and output; `onStderr` sees its error stream as it comes. */
function inspector(home: string, args: string[], onStderr: (text: string) => void = () => undefined) {
  const child = spawn(
    process.execPath,
    [inspectorCli, '--cli', endpoint.href, '--transport', 'http', ...args],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        // No terminal here: this lets the CLI start its OAuth flow; the "browser" it opens is the
        // `true` command, and the test drives the printed URL itself.
        MCP_AUTO_OPEN_ENABLED: 'true',
        BROWSER: 'true',
        // The token the first run obtained is kept for the next runs in a file under HOME.
        MCP_INSPECTOR_SECRET_STORE: 'file',
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
    onStderr(stderr);
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** A tool call's arguments as the CLI takes them: `--tool-arg key=value` pairs. */
const toolArgs = (args: Record<string, unknown>) =>
  Object.entries(args).flatMap(([key, value]) => ['--tool-arg', `${key}=${String(value)}`]);

describe('the MCP Inspector CLI (its default era for a URL, with the client metadata document URL)', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'doorcode-inspector-'));
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it('meets the 401, authorizes through the bridge and consent, lists all seven tools, then calls each with the stored token', async () => {
    // Prepare: the user's browser follows the URL the CLI prints, then loads its callback.
    let authorizing: Promise<number> | undefined;
    const authorize = (stderr: string) => {
      const url = /Please navigate to: (\S+)/.exec(stderr)?.[1];
      if (!url || authorizing) return;
      authorizing = (async () => {
        const answer = await authorizeInBrowser(app, url, owned.owner.email, { browser: newBrowser() });
        return (await fetch(answer.url)).status;
      })();
    };

    // Act
    const listed = await inspector(
      home,
      ['--method', 'tools/list', '--client-metadata-url', clientId, '--callback-url', redirectUri],
      authorize,
    );
    const callback = await authorizing;
    const calls = [];
    for (const call of everyToolCall(endUserId)) {
      calls.push(
        await inspector(home, [
          '--method',
          'tools/call',
          '--tool-name',
          call.name,
          ...toolArgs(call.arguments),
          '--stored-auth-only',
        ]),
      );
    }

    // Assess
    expect(callback).toBe(200);
    expect(listed.code).toBe(0);
    const tools = JSON.parse(listed.stdout)
      .tools.map((tool: { name: string }) => tool.name)
      .sort();
    expect(tools).toEqual(ALL_TOOLS);
    expect(calls.map((call) => call.code)).toEqual(ALL_TOOLS.map(() => 0));
    const results = calls.map((call) => JSON.parse(call.stdout));
    expect(results.map((result) => result.isError ?? false)).toEqual(ALL_TOOLS.map(() => false));
    expect(results[0].structuredContent).toMatchObject({ id: owned.applicationId, name: 'Acme Notes' });
  }, 60_000);
});
