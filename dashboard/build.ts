/**
 * Builds the owner dashboard (docs/dashboard.md) into the one document its route serves
 * (shared/dashboard/files.ts): the page, and every script and style sheet under a name that carries
 * a hash of its bytes. The screens load on demand (esbuild code splitting), so the sign-in screen
 * fetches only what it needs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { DashboardFile, DashboardFiles } from '../shared/dashboard/files.ts';
import { ASSET_PREFIX } from '../shared/dashboard/files.ts';
import { escapeHtml } from '../shared/html-escape.ts';
import { routeList } from '../shared/routes.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** Where `npm run dashboard` writes the built files; functions/dashboard/serve.ts imports it. */
export const BUILT_FILES = join(here, 'dist', 'files.json');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The method and path of every route, by id, for the console's client (dashboard/src/api.ts): it calls
 * the API by route id, so a path the table changes changes in the console too.
 */
const routeMap = () =>
  JSON.stringify(Object.fromEntries(routeList.map((route) => [route.id, [route.method, route.path]])));

/** The page: a shell the entry script fills. It names its style sheet and script, nothing inline. */
const page = (script: string, styles: readonly string[]) =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    '<meta name="robots" content="noindex">',
    '<title>Dashboard</title>',
    // No icon: without this the browser asks for /favicon.ico, a path the API does not have.
    '<link rel="icon" href="data:,">',
    ...styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    `<script type="module" src="${escapeHtml(script)}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"><main><h1>Dashboard</h1><noscript><p>The dashboard needs JavaScript.</p></noscript></main></div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

/** A build: the files, and every module they were built from (repository-relative paths). */
export interface DashboardBuild {
  readonly files: DashboardFiles;
  readonly inputs: readonly string[];
}

/** Builds every file in memory. */
export async function buildDashboard(options: { minify?: boolean } = {}): Promise<DashboardBuild> {
  const result = await build({
    entryPoints: { app: join(here, 'src', 'main.tsx') },
    bundle: true,
    format: 'esm',
    splitting: true,
    target: ['chrome120', 'firefox120', 'safari17'],
    platform: 'browser',
    minify: options.minify ?? true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    outdir: join(here, 'out'),
    // Metafile paths relative to the repository, whatever the caller's working directory.
    absWorkingDir: join(here, '..'),
    write: false,
    metafile: true,
    legalComments: 'none',
    define: { DASHBOARD_ROUTES: routeMap() },
    logLevel: 'silent',
  });
  const assets: Record<string, DashboardFile> = {};
  for (const file of result.outputFiles) {
    const name = basename(file.path);
    const extension = name.slice(name.lastIndexOf('.'));
    const type = TYPES[extension];
    if (!type) throw new Error(`The dashboard build made ${name}, a type it does not serve`);
    assets[name] = { type, body: file.text };
  }
  // Every screen is an entry point too (a dynamic import): the page loads the one from main.tsx.
  const entry = Object.entries(result.metafile.outputs).find(([, output]) =>
    output.entryPoint?.endsWith('dashboard/src/main.tsx'),
  );
  if (!entry) throw new Error('The dashboard build made no entry script');
  const [entryPath, output] = entry;
  const styles = output.cssBundle ? [ASSET_PREFIX + basename(output.cssBundle)] : [];
  return {
    files: { index: page(ASSET_PREFIX + basename(entryPath), styles), assets },
    inputs: Object.keys(result.metafile.inputs),
  };
}

/** Builds and writes dashboard/dist/files.json. */
export async function writeDashboard(): Promise<DashboardFiles> {
  const { files } = await buildDashboard();
  await mkdir(dirname(BUILT_FILES), { recursive: true });
  await writeFile(BUILT_FILES, `${JSON.stringify(files)}\n`);
  return files;
}
