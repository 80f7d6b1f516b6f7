import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type StdinOptions } from 'esbuild';
import { esbuildOptions } from '../lib/bundling.ts';
import type { AuthMode, RouteAccess } from '../shared/routes.ts';

export interface BundleResult {
  /** Absolute path of the written `index.mjs`. */
  readonly file: string;
  /** Minified size in bytes, excluding the source map. */
  readonly bytes: number;
  /** Gzip (default level) size in bytes. */
  readonly gzipBytes: number;
  readonly metafile: Metafile;
  readonly warnings: readonly string[];
}

/** A handler module of the repository, or generated source (the floor bundles). */
export type BundleSource = { readonly entry: string } | { readonly stdin: StdinOptions };

/**
 * Bundles one handler with exactly the options of lib/bundling.ts for `access` (what the stack's
 * NodejsFunction deploys) into `<outDir>/index.mjs`, plus its `.map` and `meta.json`.
 */
export async function bundleEntry(
  repoRoot: string,
  source: BundleSource,
  access: RouteAccess,
  outDir: string,
  auth: AuthMode = 'none',
): Promise<BundleResult> {
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, 'index.mjs');
  const result = await build({
    ...esbuildOptions(access, auth),
    absWorkingDir: repoRoot,
    ...('entry' in source ? { entryPoints: [source.entry] } : { stdin: source.stdin }),
    outfile: file,
    write: true,
    metafile: true,
    logLevel: 'silent',
  });
  await writeFile(join(outDir, 'meta.json'), JSON.stringify(result.metafile));
  const code = await readFile(file);
  return {
    file,
    bytes: code.byteLength,
    gzipBytes: gzipSync(code).byteLength,
    metafile: result.metafile,
    warnings: result.warnings.map((w) => w.text),
  };
}

export interface InputShare {
  readonly path: string;
  /** Bytes this input contributes to the minified output. */
  readonly bytes: number;
}

/** The inputs of a one-output bundle by bytes in the output, largest first. */
export function topInputs(metafile: Metafile, limit: number): InputShare[] {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined);
  if (!output) return [];
  return Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, limit);
}

/** Same, summed by directory (e.g. `node_modules/zod/v4/locales`), which shows what a package drags in. */
export function topDirectories(metafile: Metafile, limit: number): InputShare[] {
  return sumBy(metafile, limit, (path) => path.slice(0, Math.max(0, path.lastIndexOf('/'))) || '.');
}

/** Same, summed by npm package (innermost `node_modules/<pkg>` or `node_modules/@scope/pkg`); own code is `(project)`. */
export function topPackages(metafile: Metafile, limit: number): InputShare[] {
  return sumBy(metafile, limit, (path) => {
    const parts = path.split('node_modules/');
    const inPackage = parts.length > 1 ? parts.at(-1)!.split('/') : [];
    return inPackage[0]?.startsWith('@') ? inPackage.slice(0, 2).join('/') : (inPackage[0] ?? '(project)');
  });
}

function sumBy(metafile: Metafile, limit: number, keyOf: (path: string) => string): InputShare[] {
  const sums = new Map<string, number>();
  for (const { path, bytes } of topInputs(metafile, Number.POSITIVE_INFINITY)) {
    const key = keyOf(path);
    sums.set(key, (sums.get(key) ?? 0) + bytes);
  }
  return [...sums]
    .map(([path, bytes]) => ({ path, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, limit);
}
