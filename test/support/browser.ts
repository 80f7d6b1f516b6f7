import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * CONTRIBUTING.md, "Tests and benches": `CHROMIUM_PATH` if set, else Debian's chromium (which `scripts/ensure-chromium.mjs`
 * installs when it can). Never `playwright install`.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Headless, with no sandbox, GPU, QUIC, first-run, background networking, component update or sync.
 * The host resolver rule makes every name but 127.0.0.1 unresolvable, so nothing the browser does can
 * leave the machine.
 */
const chromiumFlags = (loopbackNames: readonly string[]) => [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--host-resolver-rules=${['MAP * ~NOTFOUND', 'EXCLUDE 127.0.0.1', ...loopbackNames.map((name) => `EXCLUDE ${name}`)].join(' , ')}`,
];

export interface BrowserOptions {
  /**
   * Names besides 127.0.0.1 the browser may resolve, each a loopback name (`localhost`: the social
   * sign-in providers of test/support/social-providers.ts have https://localhost issuers).
   */
  loopbackNames?: readonly 'localhost'[];
  /** Accept the certificates of the test CA (fixtures/metadata-host.ts), which the profile does not trust. */
  ignoreHTTPSErrors?: boolean;
}

export interface TestBrowser {
  context: BrowserContext;
  /** A fresh tab. */
  newPage(): Promise<Page>;
  /** Closes the browser and removes its profile directory. */
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile (so no cookie survives from another run). */
export async function launchBrowser(options: BrowserOptions = {}): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'doorcode-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: chromiumFlags(options.loopbackNames ?? []),
      ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    newPage: () => context.newPage(),
    close: async () => {
      try {
        await context.close();
      } finally {
        await rm(profile, { recursive: true, force: true });
      }
    },
  };
}

export interface PageServer {
  /** `http://127.0.0.1:<port>`: the origin of the page, as a browser sends it in `Origin`. */
  origin: string;
  close(): Promise<void>;
}

/** A file the page loads, such as a script, by its path. */
export interface ServedFile {
  contentType: string;
  body: string;
}

/** Serves `html` at `/`, each of `files` at its path (and 404 elsewhere) on 127.0.0.1, on a free port. */
export async function servePage(html: string, files: Record<string, ServedFile> = {}): Promise<PageServer> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url?.startsWith('/?'))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    const file = req.method === 'GET' && req.url ? files[req.url] : undefined;
    if (file) {
      res.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store' });
      res.end(file.body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the page server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
