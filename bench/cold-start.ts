import { execFile } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * Runs in a fresh `node` per sample, as a Lambda container starts: times `await import(bundle)`,
 * then one call of its `handler` with the event (argv[2]) and a minimal context, and reports both
 * (wall clock, and the process's CPU time, which a busy machine disturbs far less) with the
 * resident set size after the call. The result is the last line, after any log lines.
 */
const childScript = `
const done = (o) => process.stdout.write('\\n@@bench ' + JSON.stringify(o) + '\\n', () => process.exit(0));
const cpuMs = (since) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };
try {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const mod = await import(process.argv[1]);
  const t1 = performance.now();
  const importCpuMs = cpuMs(c0);
  if (typeof mod.handler !== 'function') done({ error: 'no exported handler function' });
  else {
    const context = { awsRequestId: 'bench-request', functionName: 'bench', getRemainingTimeInMillis: () => 10000 };
    const c1 = process.cpuUsage();
    const result = await mod.handler(JSON.parse(process.argv[2]), context);
    const t2 = performance.now();
    done({ importMs: t1 - t0, invokeMs: t2 - t1, importCpuMs, invokeCpuMs: cpuMs(c1), status: result && result.statusCode, rss: process.memoryUsage().rss });
  }
} catch (e) {
  done({ error: String((e && e.stack) || e) });
}
`;

export interface Sample {
  readonly importMs: number;
  readonly invokeMs: number;
  readonly importCpuMs: number;
  readonly invokeCpuMs: number;
  readonly status: number | undefined;
  readonly rssBytes: number;
}

/** One cold start of `file` in a fresh process with exactly `env` (plus PATH and LANG). */
export function coldStart(
  file: string,
  event: unknown,
  env: Readonly<Record<string, string>>,
): Promise<Sample | { readonly error: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', childScript, pathToFileURL(file).href, JSON.stringify(event)],
      {
        env: { PATH: process.env.PATH ?? '', LANG: process.env.LANG ?? 'C', ...env },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const line = stdout.split('\n').findLast((l) => l.startsWith('@@bench '));
        if (!line) {
          resolve({ error: (stderr.trim() || err?.message || 'no output').trim() });
          return;
        }
        const parsed = JSON.parse(line.slice('@@bench '.length)) as {
          importMs?: number;
          invokeMs?: number;
          importCpuMs?: number;
          invokeCpuMs?: number;
          status?: number;
          rss?: number;
          error?: string;
        };
        if (parsed.error !== undefined || parsed.importMs === undefined || parsed.invokeMs === undefined) {
          resolve({ error: parsed.error ?? `unexpected child output: ${line}` });
          return;
        }
        resolve({
          importMs: parsed.importMs,
          invokeMs: parsed.invokeMs,
          importCpuMs: parsed.importCpuMs ?? 0,
          invokeCpuMs: parsed.invokeCpuMs ?? 0,
          status: parsed.status,
          rssBytes: parsed.rss ?? 0,
        });
      },
    );
  });
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
