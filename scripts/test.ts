/**
 * What `npm test` runs once the dashboard is built and a Chromium is there (CONTRIBUTING.md, "Tests
 * and benches"): the package checks, then vitest; the static checks (types, Biome, the layering,
 * unused code, the OpenAPI linters) start with the package checks and run beside both at a lower
 * priority. vitest leaves about a fifth of two cores idle while its files wait on DynamoDB Local and
 * Chromium, and the static checks fill it: they took 24 s before vitest, and cost it a few seconds
 * beside it. vitest waits for the package checks, since both pack the packages, whose `prepack`
 * rebuilds their `dist/`.
 *
 * vitest has the terminal; what each check printed is held and printed under its name once vitest has
 * ended (its status lines would overwrite it otherwise). The command fails if any check or vitest
 * does. Arguments go to vitest (`npm test -- test/http/x.test.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';

/** The npm scripts of the static checks, in the order they run, one at a time. */
const STATIC_CHECKS = ['typecheck', 'lint', 'deps', 'knip', 'lint:openapi'] as const;
/** Above vitest's 0: the checks take what vitest leaves idle. */
const CHECK_NICENESS = 10;

interface Ended {
  name: string;
  ok: boolean;
  /** What it printed (a check's), with its verdict. */
  report?: string;
}

/** The processes running now, stopped with this script. */
const running = new Set<ChildProcess>();

function started(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('close', () => running.delete(child));
  return child;
}

/** Resolves once the child has ended, however it ended (a spawn that failed included). */
function ended(child: ChildProcess): Promise<{ code: number | null; signal: string | null; error?: Error }> {
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

/** Runs `npm run <name>` at `niceness`, holding what it prints. */
async function check(name: string, niceness: number): Promise<Ended> {
  const since = performance.now();
  const child = started(spawn('npm', ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] }));
  lower(child, niceness);
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const { code, signal, error } = await ended(child);
  const seconds = ((performance.now() - since) / 1000).toFixed(1);
  const ok = code === 0;
  const verdict = ok
    ? `✓ ${name} (${seconds} s)`
    : `✗ ${name} (${seconds} s, ${error ? error.message : (signal ?? `exit code ${code}`)})`;
  const printed = Buffer.concat(output).toString('utf8').trimEnd();
  return { name, ok, report: printed ? `${verdict}\n${printed}` : verdict };
}

/** Lowers the child's priority (and so that of what it starts); nothing where the OS refuses. */
function lower(child: ChildProcess, niceness: number): void {
  if (niceness === 0 || child.pid === undefined) return;
  try {
    setPriority(child.pid, niceness);
  } catch {
    // Only the speed of the run depends on it.
  }
}

/** Runs vitest with the terminal as its output. */
async function vitest(args: string[]): Promise<Ended> {
  const child = started(spawn('npx', ['vitest', 'run', ...args], { stdio: 'inherit' }));
  const { code, error } = await ended(child);
  if (error) console.error(`✗ vitest: ${error.message}`);
  return { name: 'vitest', ok: code === 0 };
}

async function staticChecks(): Promise<Ended[]> {
  const results: Ended[] = [];
  for (const name of STATIC_CHECKS) results.push(await check(name, CHECK_NICENESS));
  return results;
}

// Stopped (Ctrl-C reaches the children too; a plain kill of this process does not): stop what runs.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) child.kill(signal);
    process.exitCode = 130;
  });
}

const staticRun = staticChecks();
const packages = await check('packages', 0);
const tests = packages.ok
  ? await vitest(process.argv.slice(2))
  : { name: 'vitest (not run after the package checks failed)', ok: false };
const results = [packages, ...(await staticRun), tests];
console.log('\nThe checks:');
for (const { ok, report } of results.slice(0, -1)) if (report) (ok ? console.log : console.error)(report);
const failed = results.filter((result) => !result.ok).map(({ name }) => name);
if (failed.length > 0) {
  console.error(`npm test failed: ${failed.join(', ')}`);
  process.exit(1);
}
