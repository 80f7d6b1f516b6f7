/**
 * What `npm test` runs once the dashboard is built and a Chromium is there (CONTRIBUTING.md, "Tests
 * and benches"): the package checks, then vitest, with the static checks (types, Biome, the layering,
 * unused code, the OpenAPI linters) beside both at a lower priority. vitest leaves about a fifth of
 * two cores idle while its files wait on DynamoDB Local and Chromium, and the static checks fill it:
 * they took 24 s before vitest, and cost it a few seconds beside it. The package checks stay before
 * vitest, since both pack the packages, whose `prepack` rebuilds their `dist/`.
 *
 * A check's output is printed when it ends: one line if it passed, all of it if it failed. The command
 * fails if any check or vitest does. Arguments go to vitest (`npm test -- test/http/x.test.ts`).
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
}

/** Runs `npm run <name>`; its output is held and printed when it ends, in full only if it failed. */
function check(name: string, niceness: number): Promise<Ended> {
  const started = performance.now();
  const child = spawn('npm', ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] });
  lower(child, niceness);
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.once('error', (error) => {
      console.error(`✗ ${name}: ${error.message}`);
      resolve({ name, ok: false });
    });
    child.once('close', (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (code === 0) {
        console.log(`✓ ${name} (${seconds} s)`);
      } else {
        console.error(`✗ ${name} (${seconds} s, ${signal ?? `exit code ${code}`}):`);
        console.error(Buffer.concat(output).toString('utf8').trimEnd());
      }
      resolve({ name, ok: code === 0 });
    });
  });
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
function vitest(args: string[]): Promise<Ended> {
  const child = spawn('npx', ['vitest', 'run', ...args], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('error', (error) => {
      console.error(`✗ vitest: ${error.message}`);
      resolve({ name: 'vitest', ok: false });
    });
    child.once('close', (code) => resolve({ name: 'vitest', ok: code === 0 }));
  });
}

async function staticChecks(): Promise<Ended[]> {
  const ended: Ended[] = [];
  for (const name of STATIC_CHECKS) ended.push(await check(name, CHECK_NICENESS));
  return ended;
}

const staticRun = staticChecks();
const packages = await check('packages', 0);
const tests = packages.ok
  ? await vitest(process.argv.slice(2))
  : { name: 'vitest (not run after the package checks failed)', ok: false };
const failed = [packages, ...(await staticRun), tests].filter((ended) => !ended.ok).map(({ name }) => name);
if (failed.length > 0) {
  console.error(`npm test failed: ${failed.join(', ')}`);
  process.exit(1);
}
