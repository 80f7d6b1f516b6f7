/**
 * `npm run sdk:build`: the browser SDK (sdk/src) to sdk/dist: `index.js`, one minified browser ESM
 * bundle (esbuild), and its declarations (`tsc --emitDeclarationOnly`, TypeScript 7 emits them).
 * Tests and the bench call `buildSdk` with a folder of their own, so nothing depends on a stale
 * sdk/dist and parallel builds never write the same files.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const repoRoot = join(import.meta.dirname, '..');

export interface SdkBuild {
  /** The bundle's path. */
  file: string;
  bytes: number;
  /** Size after gzip at its highest level, as a CDN would serve it (docs/sdk.md: at most 10 KB). */
  gzipBytes: number;
}

export async function buildSdk(outDir = join(repoRoot, 'sdk', 'dist')): Promise<SdkBuild> {
  await rm(outDir, { recursive: true, force: true });
  const file = join(outDir, 'index.js');
  await build({
    entryPoints: [join(repoRoot, 'sdk', 'src', 'index.ts')],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  await declarations(outDir);
  const code = await readFile(file);
  return { file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

/** `.d.ts` files beside the bundle, their relative imports pointing at `.js` as a consumer resolves them. */
async function declarations(outDir: string): Promise<void> {
  const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');
  const project = join(repoRoot, 'sdk', 'tsconfig.json');
  const args = ['-p', project, '--noEmit', 'false', '--declaration', '--emitDeclarationOnly'];
  await promisify(execFile)(tsc, [
    ...args,
    '--rootDir',
    join(repoRoot, 'sdk', 'src'),
    '--outDir',
    outDir,
  ]).catch((error: { stdout?: string }) => {
    throw new Error(`tsc could not emit the SDK's declarations:\n${error.stdout ?? error}`);
  });
  for (const name of await readdir(outDir)) {
    if (!name.endsWith('.d.ts')) continue;
    const path = join(outDir, name);
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace(/(from '\.\/[\w-]+)\.ts'/g, "$1.js'"));
  }
}

if (process.argv[1] === import.meta.filename) {
  const built = await buildSdk();
  console.log(`${built.file}: ${built.bytes} bytes, ${built.gzipBytes} bytes gzipped`);
}
