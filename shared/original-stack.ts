import type { SourceMap } from 'node:module';

/**
 * A bundle's stack in source positions, read from the `.map` beside the bundle. The functions run
 * without `--enable-source-maps`, which parses every map at each cold start (bench/bundles.ts:
 * +20-30% import CPU, +4-8 MiB); this reads the map only when an unexpected error is logged, once
 * per container. Unbundled code (tsx, vitest) has no `.map` files and its stacks are left as they are.
 * The built-ins it needs are loaded then too, not at every cold start (docs/operations.md, "Cold starts").
 */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      const { SourceMap } = process.getBuiltinModule('node:module');
      map = new SourceMap(
        JSON.parse(process.getBuiltinModule('node:fs').readFileSync(`${file}.map`, 'utf8')),
      );
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

// `    at name (file:///var/task/index.mjs:1:2345)` or `    at file:///var/task/index.mjs:1:2345`
const frame = /^(\s*at (?:.*? \()?)(file:\/\/[^\s()]+):(\d+):(\d+)(\)?)$/;

/** `stack` with every frame of a source-mapped file in source positions; undefined when none is. */
export function originalStack(stack: string): string | undefined {
  let mapped = false;
  const lines = stack.split('\n').map((line) => {
    const match = frame.exec(line);
    if (!match) return line;
    // Every group of `frame` takes part in a match (the last may be empty).
    const [, head = '', url = '', row = '', column = '', tail = ''] = match;
    const entry = mapOf(process.getBuiltinModule('node:url').fileURLToPath(url))?.findEntry(
      Number(row) - 1,
      Number(column) - 1,
    );
    if (!entry || !('originalSource' in entry)) return line;
    mapped = true;
    // esbuild writes sources relative to the bundle's build directory.
    const source = entry.originalSource.replace(/^(\.\.\/)+/, '');
    return `${head}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${tail}`;
  });
  return mapped ? lines.join('\n') : undefined;
}
