import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { esbuildOptions } from '../../lib/bundling.ts';
import type { routeList } from '../../shared/routes.ts';

type Route = (typeof routeList)[number];

const repoRoot = join(import.meta.dirname, '..', '..');

async function metafileOf(entries: string[], options: BuildOptions): Promise<Metafile> {
  const { metafile } = await build({
    ...options,
    absWorkingDir: repoRoot,
    entryPoints: entries,
    // Names the outputs only: nothing is written.
    outdir: join(repoRoot, 'cdk.out', 'bundle-inputs'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return metafile as Metafile;
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
export async function routeInputs(routes: readonly Route[]): Promise<Map<string, string[]>> {
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
  const inputs = new Map<string, string[]>();
  await Promise.all(
    [...byOptions.values()].map(async (group) => {
      const metafile = await metafileOf(
        [...new Set(group.routes.map((route) => route.entry))],
        group.options,
      );
      for (const route of group.routes) inputs.set(route.id, reachedFrom(metafile, route.entry));
    }),
  );
  return inputs;
}
