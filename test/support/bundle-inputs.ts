import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { esbuildOptions } from '../../lib/bundling.ts';
import type { routeList } from '../../shared/routes.ts';

type Route = (typeof routeList)[number];

const repoRoot = join(import.meta.dirname, '..', '..');

async function metafileOf(entries: string[], options: BuildOptions): Promise<Metafile> {
  return (await buildOf(entries, options)).metafile;
}

async function buildOf(entries: string[], options: BuildOptions) {
  const { metafile, outputFiles } = await build({
    ...options,
    absWorkingDir: repoRoot,
    entryPoints: entries,
    // Names the outputs only: nothing is written.
    outdir: join(repoRoot, 'cdk.out', 'bundle-inputs'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { metafile: metafile as Metafile, outputFiles: outputFiles ?? [] };
}

/** The files of a metafile's inputs that `entry` reaches through their imports: what its own build reads. */
function reachedFrom(metafile: Metafile, entry: string): string[] {
  const reached = new Set<string>();
  const pending = [entry];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (reached.has(path)) continue;
    reached.add(path);
    for (const imported of metafile.inputs[path]?.imports ?? []) {
      if (!imported.external) pending.push(imported.path);
    }
  }
  return [...reached].sort();
}

/** The inputs of the route's bundle built alone and exactly as the stack deploys it (lib/bundling.ts). */
export async function deployedInputs(route: Route): Promise<string[]> {
  return Object.keys(
    (await metafileOf([route.entry], esbuildOptions(route.access, route.auth))).inputs,
  ).sort();
}

/**
 * The files esbuild reads to bundle each route with its deployed options, by route id: what
 * `deployedInputs` answers, for a fraction of the builds. One build for each distinct set of options
 * (the routes of one access and auth mode share theirs) takes all of their entries, and a route's
 * files are those its entry reaches through the metafile's imports. Which files a build reads follows
 * from resolving imports alone, not from minifying or mapping the output, so these builds do neither.
 */
export async function routeInputs(routes: readonly Route[]): Promise<RouteInputs> {
  const byOptions = new Map<string, { options: BuildOptions; routes: Route[] }>();
  for (const route of routes) {
    const options: BuildOptions = {
      ...esbuildOptions(route.access, route.auth),
      minify: false,
      sourcemap: false,
    };
    const key = JSON.stringify(options);
    const group = byOptions.get(key) ?? { options, routes: [] };
    group.routes.push(route);
    byOptions.set(key, group);
  }
  const inputs: RouteInputs = Object.assign(new Map<string, string[]>(), {
    importers: new Map<string, Set<string>>(),
    dynamicRequires: [] as string[],
  });
  await Promise.all(
    [...byOptions.values()].map(async (group) => {
      const { metafile, outputFiles } = await buildOf(
        [...new Set(group.routes.map((route) => route.entry))],
        group.options,
      );
      // esbuild's stand-in for a CommonJS `require` in an ESM bundle, which throws when called.
      for (const file of outputFiles) {
        if (!file.text.includes('Dynamic require of')) continue;
        const output = Object.entries(metafile.outputs).find(([path]) => file.path.endsWith(path));
        inputs.dynamicRequires.push(output?.[1].entryPoint ?? file.path);
      }
      for (const route of group.routes) inputs.set(route.id, reachedFrom(metafile, route.entry));
      for (const [path, input] of Object.entries(metafile.inputs)) {
        for (const imported of input.imports) {
          const specifier = imported.original ?? imported.path;
          const importers = inputs.importers.get(specifier) ?? new Set();
          inputs.importers.set(specifier, importers.add(path));
        }
      }
    }),
  );
  return inputs;
}

/**
 * Each route's inputs by id; the files of any route's bundle that import each specifier as written;
 * the entries whose bundle holds a CommonJS `require` that ESM cannot serve.
 */
export type RouteInputs = Map<string, string[]> & {
  importers: Map<string, Set<string>>;
  dynamicRequires: string[];
};
