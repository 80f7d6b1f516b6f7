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
import { constants, setPriority } from 'node:os';
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

/** The processes running now, stopped with this script; whether each leads a process group of its own. */
const running = new Map<ChildProcess, { group: boolean }>();
/** The signal that stopped the run, if one did: nothing more is started. */
let stoppedBy: NodeJS.Signals | undefined;
/** How long a stopped child has before it is killed outright. */
const STOP_GRACE_MS = 5_000;

function started(child: ChildProcess, group: boolean): ChildProcess {
  running.set(child, { group });
  child.once('close', () => running.delete(child));
  return child;
}

/**
 * Stops a child: a check, in a process group of its own, as a group (npm, its shell and what that
 * started), killed outright after STOP_GRACE_MS; vitest, in ours, by its pid.
 */
function stop(child: ChildProcess, group: boolean, signal: NodeJS.Signals): void {
  const send = (sent: NodeJS.Signals) => {
    try {
      if (group && child.pid !== undefined) process.kill(-child.pid, sent);
      else child.kill(sent);
    } catch {
      // Already gone.
    }
  };
  send(signal);
  // vitest is left the time its teardown needs (the DynamoDB Locals, Chromium).
  if (group) setTimeout(() => send('SIGKILL'), STOP_GRACE_MS).unref();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stoppedBy ??= signal;
    for (const [child, { group }] of running) {
      // A Ctrl-C at the terminal has reached vitest already; a second one would cut its teardown short.
      if (group || signal !== 'SIGINT') stop(child, group, signal);
    }
  });
}

/** Resolves once the child has ended, however it ended (a spawn that failed included). */
function ended(child: ChildProcess): Promise<{ code: number | null; signal: string | null; error?: Error }> {
  return new Promise((resolve) => {
    child.once('error', (error) => {
      // An error once it runs is a kill that failed: its close still comes.
      if (child.pid === undefined) resolve({ code: null, signal: null, error });
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

/** Runs `npm run <name>` at `niceness`, holding what it prints. */
async function check(name: string, niceness: number): Promise<Ended> {
  const since = performance.now();
  if (stoppedBy) return { name, ok: false, report: `✗ ${name} (not run: stopped by ${stoppedBy})` };
  const group = process.platform !== 'win32';
  const child = started(
    spawn('npm', ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'], detached: group }),
    group,
  );
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
  if (stoppedBy) return { name: `vitest (not run: stopped by ${stoppedBy})`, ok: false };
  const child = started(spawn('npx', ['vitest', 'run', ...args], { stdio: 'inherit' }), false);
  const { code, error } = await ended(child);
  if (error) console.error(`✗ vitest: ${error.message}`);
  return { name: 'vitest', ok: code === 0 };
}

async function staticChecks(): Promise<Ended[]> {
  const results: Ended[] = [];
  for (const name of STATIC_CHECKS) results.push(await check(name, CHECK_NICENESS));
  return results;
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
if (stoppedBy) {
  console.error(`npm test stopped by ${stoppedBy}`);
  process.exitCode = 128 + constants.signals[stoppedBy];
} else if (failed.length > 0) {
  console.error(`npm test failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
