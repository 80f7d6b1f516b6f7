import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * Runs in a fresh `node` per sample: times `await import(url)` only, then reports as JSON.
 * It also checks that the module exports a `handler` function (outside the timed span).
 */
const childScript = `
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n', () => process.exit(0));
let mod;
const t = performance.now();
try {
  mod = await import(process.argv[1]);
} catch (e) {
  out({ error: String((e && e.stack) || e) });
}
const ms = performance.now() - t;
if (mod) out(typeof mod.handler === 'function' ? { ms } : { ms, error: 'no exported handler function' });
`;

/** The child's environment: no AWS credentials, region or app config, and no loader hooks from tsx. */
function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', LANG: process.env.LANG ?? 'C' };
}

type Sample = { readonly ms: number } | { readonly error: string };

function sampleOnce(url: string): Promise<Sample> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', childScript, url],
      { env: childEnv(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          const parsed = JSON.parse(line) as { ms?: number; error?: string };
          if (parsed.error !== undefined) resolve({ error: parsed.error });
          else if (typeof parsed.ms === 'number') resolve({ ms: parsed.ms });
          else resolve({ error: `unexpected child output: ${line}` });
        } catch {
          resolve({ error: (stderr.trim() || err?.message || `no output (stdout: ${line})`).trim() });
        }
      },
    );
  });
}

export type ColdImport =
  | {
      readonly ok: true;
      readonly samples: readonly number[];
      readonly median: number;
      readonly min: number;
      readonly max: number;
      readonly p90: number;
    }
  | { readonly ok: false; readonly error: string };

/** Nearest-rank percentile of ascending `sorted`. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Cold import time of `file`: one untimed warm-up process (puts the file in the page cache and
 * surfaces import errors once), then `runs` fresh processes, one after another.
 */
export async function measureColdImport(file: string, runs: number): Promise<ColdImport> {
  const url = pathToFileURL(file).href;
  const warmup = await sampleOnce(url);
  if ('error' in warmup) return { ok: false, error: warmup.error };
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = await sampleOnce(url);
    if ('error' in s) return { ok: false, error: s.error };
    samples.push(s.ms);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    ok: true,
    samples,
    median: median(sorted),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    p90: percentile(sorted, 90),
  };
}
