/**
 * Launch day (docs/operations.md, "Launch load"): sign-ins into ONE application at fixed rates,
 * open-loop (each sign-in starts on its schedule, whatever the answers before it), through the real
 * local server in a process of its own, whose DynamoDB client talks to DynamoDB Local through the
 * conflict proxy (bench/conflict-proxy.ts): there, overlapping transactions on one item are cancelled
 * as DynamoDB cancels them, which DynamoDB Local never does. Each sign-in is a start and a verify with
 * the code read from the SES emulator's store; a share of them are returning users, signed in once
 * before the run. Every rate runs with the transactions held `--hold` ms and again with no hold.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { send } from '../fixtures/loopback-client.ts';
import { loadConfig } from '../shared/config.ts';
import { createDeps } from '../shared/deps.ts';
import { ensureTable } from '../shared/local/create-table.ts';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.ts';
import { freePort } from '../shared/local/ports.ts';
import { startServer } from '../shared/local/server.ts';
import { startSesLocal } from '../shared/local/ses-local.ts';
import { type NamedItem, type ProxyCounts, startConflictProxy } from './conflict-proxy.ts';
import type { Benchmark } from './types.ts';

/** Handlers the local server runs at once (shared/local/server.ts, CONTRIBUTING.md "Running locally"). */
const LOCAL_SLOTS = 20;
const CODE = /\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/;

// ---------------------------------------------------------------------------------------------------
// The service's process: what `npm start` serves, pointed at the proxy (started by `run` below).

async function serveForBench(): Promise<void> {
  const config = loadConfig(process.env);
  const server = await startServer({ port: Number(process.env.PORT), deps: createDeps(config) });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  // The bench's end, or its crash: its end of stdin closes.
  process.stdin.on('end', stop).resume();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveForBench();

// ---------------------------------------------------------------------------------------------------
// The emulator's store, read in this process (the emulator runs here): one pass over new messages.

interface StoredEmail {
  destination: { to: string[] };
  body: { text?: string };
}
interface EmulatorStore {
  getStoreReadonly(): { emails: StoredEmail[] };
  clearStore(): void;
}

function inbox() {
  const store = createRequire(import.meta.url)('aws-ses-v2-local/dist/store.js') as EmulatorStore;
  const codes = new Map<string, string>();
  const waiters = new Map<string, (code: string) => void>();
  let list = store.getStoreReadonly().emails;
  let seen = 0;
  const scan = () => {
    const { emails } = store.getStoreReadonly();
    if (emails !== list) [list, seen] = [emails, 0];
    for (; seen < emails.length; seen++) {
      const email = emails[seen]!;
      const code = email.body.text?.match(CODE)?.[0];
      if (!code) continue;
      for (const to of email.destination.to) {
        const waiter = waiters.get(to);
        waiters.delete(to);
        if (waiter) waiter(code);
        else codes.set(to, code);
      }
    }
  };
  const timer = setInterval(scan, 5);
  return {
    /** Before a start: an older code of the address is not the one to wait for. */
    forget: (address: string) => codes.delete(address),
    code(address: string, timeoutMs: number): Promise<string> {
      const known = codes.get(address);
      if (known) {
        codes.delete(address);
        return Promise.resolve(known);
      }
      return new Promise((resolve, reject) => {
        const late = setTimeout(() => {
          waiters.delete(address);
          reject(new Error('no code'));
        }, timeoutMs);
        waiters.set(address, (code) => {
          clearTimeout(late);
          resolve(code);
        });
      });
    },
    clear() {
      store.clearStore();
      codes.clear();
    },
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------------------------------------------
// CPU time, from /proc (Linux): the service's process, DynamoDB Local's JVM, this process, the machine.

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return [
      stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      ...stat.slice(stat.lastIndexOf(')') + 2).split(' '),
    ];
  } catch {
    return undefined;
  }
}

/** CPU seconds of a process (user + system), or NaN when it cannot be read. */
function processCpu(pid: number | undefined): number {
  const fields = pid === undefined ? undefined : statFields(pid);
  return fields ? (Number(fields[12]) + Number(fields[13])) / ticksPerSecond : Number.NaN;
}

/** The `java` process this process started (DynamoDB Local). */
function jvmPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields?.[0] === 'java' && Number(fields[2]) === process.pid) return Number(entry);
  }
  return undefined;
}

/** Busy and total CPU seconds of the whole machine, every core. */
function machineCpu(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.reduce((sum, n) => sum + n, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) / ticksPerSecond, total: total / ticksPerSecond };
}

interface CpuSnapshot {
  at: number;
  service: number;
  dynamodb: number;
  bench: number;
  machine: { busy: number; total: number };
}

// ---------------------------------------------------------------------------------------------------
// The load.

interface Phase {
  status: number;
  ms: number;
  /** `code` of the error answer, with `details.reason` when there is one. */
  error?: string;
}

interface SignInRecord {
  returning: boolean;
  /** How late the driver sent the start, after its schedule. */
  lagMs: number;
  start?: Phase;
  mailMs?: number;
  verify?: Phase;
  failure?: string;
}

interface RunResult {
  hold: number;
  rate: number;
  planned: number;
  returning: number;
  scheduleSeconds: number;
  elapsedSeconds: number;
  completed: number;
  achievedPerSecond: number;
  verifyBusy: number;
  startBusy: number;
  otherErrors: Record<string, number>;
  unfinished: number;
  /** Every sign-in answered within `--drain` seconds of the schedule's end. */
  drained: boolean;
  verifyTransactionsPerSignIn: number;
  transactionsPerSignIn: number;
  verifyMs: { p50: number; p99: number; max: number };
  startMs: { p50: number; p99: number; max: number };
  mailMs: { p50: number; p99: number };
  lagMs: { p99: number; max: number };
  atServer: { mean: number; max: number };
  cpu: { service: number; dynamodb: number; bench: number; machine: number; others: number };
  /** CPU milliseconds per completed sign-in, by process. */
  cpuMsPerSignIn: { service: number; dynamodb: number; bench: number };
  proxy: ProxyCounts;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** A verify's transaction spends the sign-in request (a Delete of its `SIGNIN` item); start's puts one. */
function classify(items: readonly NamedItem[]): string {
  const signIn = (item: NamedItem) => (item.key.sk as { S?: string } | undefined)?.S === 'SIGNIN';
  if (items.some((item) => item.action === 'Delete' && signIn(item))) return 'sign-in';
  if (items.some((item) => item.action === 'Put' && signIn(item))) return 'start';
  return 'other';
}

const errorOf = (body: unknown): string | undefined => {
  const error = (body as { error?: { code?: string; details?: { reason?: string } } } | undefined)?.error;
  if (!error?.code) return undefined;
  return error.details?.reason ? `${error.code} ${error.details.reason}` : error.code;
};

let nextIp = 0;
/** A loopback source address of its own (rate limits count per source IP: docs/security.md, "Rate limits"). */
function freshIp(): string {
  const n = ++nextIp;
  return `127.${64 + ((n >> 16) & 0x3f)}.${(n >> 8) & 0xff}.${n & 0xff}`;
}

function option(options: Readonly<Record<string, string>>, name: string, fallback: string): string {
  return options[name] || fallback;
}

export const launchBenchmark: Benchmark = {
  name: 'launch',
  description:
    'open-loop sign-ins into one application through a proxy that cancels overlapping transactions as DynamoDB does',
  async run(ctx) {
    const rates = option(ctx.options, 'rates', '50,200,500').split(',').map(Number);
    const hold = Number(option(ctx.options, 'hold', '30'));
    const holds = hold > 0 ? [hold, 0] : [0];
    const duration = Number(option(ctx.options, 'duration', '5'));
    const countOf = (rate: number) =>
      ctx.options.count ? Number(ctx.options.count) : Math.max(1, Math.round(rate * duration));
    const returningShare = Number(option(ctx.options, 'returning', '0.5'));
    const drainSeconds = Number(option(ctx.options, 'drain', '300'));
    if ([...rates, hold, duration, returningShare, drainSeconds].some((n) => !Number.isFinite(n) || n < 0)) {
      throw new Error('--rates, --hold, --duration, --count, --returning and --drain take numbers');
    }
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

    const dynamo = await startDynamoDbLocal({ port: await freePort() });
    const ses = await startSesLocal({ port: await freePort() });
    const mail = inbox();
    const table = `launch-${randomUUID()}`;
    await ensureTable(dynamo.endpoint, table);
    const proxy = await startConflictProxy({ upstream: dynamo.endpoint, hold: 0, classify });
    const keyDir = mkdtempSync(join(tmpdir(), 'doorcode-launch-'));
    const port = await freePort();
    const service = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      cwd: ctx.repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        PORT: String(port),
        TABLE_NAME: table,
        ISSUER: `http://127.0.0.1:${port}`,
        PLATFORM_ORIGINS: `http://127.0.0.1:${port}`,
        MAIL_FROM: 'no-reply@launch.bench.test',
        LOCAL_SIGNING_KEY_FILE: join(keyDir, 'signing-key.pem'),
        LOCAL_CODE_KEY_FILE: join(keyDir, 'code-hash-key'),
        LOCAL_SEALING_KEY_FILE: join(keyDir, 'sealing-key'),
        DYNAMODB_ENDPOINT: proxy.url,
        SES_ENDPOINT: ses.endpoint,
        SES_CONFIGURATION_SET: 'doorcode-bench',
        LOG_LEVEL: 'error',
      },
    });
    let serviceLog = '';
    service.stderr.on('data', (chunk: Buffer) => {
      serviceLog = (serviceLog + chunk.toString()).slice(-20_000);
    });
    const stopAll = async () => {
      service.stdin.end();
      service.kill('SIGTERM');
      mail.stop();
      await proxy.close();
      await ses.stop();
      await dynamo.stop();
      rmSync(keyDir, { recursive: true, force: true });
    };

    try {
      const url = await new Promise<string>((resolve, reject) => {
        // Its first line is where it listens; after it, what it logs (errors only).
        let first = true;
        createInterface({ input: service.stdout }).on('line', (line) => {
          if (first) resolve((JSON.parse(line) as { url: string }).url);
          else serviceLog = `${serviceLog}${line}\n`.slice(-20_000);
          first = false;
        });
        service.once('exit', (code) => reject(new Error(`the service exited (${code}): ${serviceLog}`)));
      });
      const jvm = jvmPid();
      const cpu = (): CpuSnapshot => ({
        at: performance.now(),
        service: processCpu(service.pid),
        dynamodb: processCpu(jvm),
        bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
        machine: machineCpu(),
      });

      let atServer = 0;
      const post = async (path: string, body: unknown, ip: string, headers: Record<string, string> = {}) => {
        atServer++;
        try {
          return await send(url, 'POST', path, { body, headers, ip });
        } finally {
          atServer--;
        }
      };

      // One platform account, its organization and ONE application with a public key, through the API
      // (docs/quickstart-agent.md).
      const ownerEmail = 'owner@launch.bench.test';
      const ownerIp = freshIp();
      mail.forget(ownerEmail);
      await post('/auth/code/start', { email: ownerEmail }, ownerIp);
      const ownerCode = await mail.code(ownerEmail, 30_000);
      const owner = await post('/auth/code/verify', { email: ownerEmail, code: ownerCode }, ownerIp);
      const token = (owner.body as { token?: string }).token;
      if (!token) throw new Error(`owner sign-in: ${owner.status} ${owner.text}`);
      const manage = async (path: string, body: unknown) => {
        const answer = await post(path, body, freshIp(), { authorization: `Bearer ${token}` });
        const id = (answer.body as { id?: string; key?: string }) ?? {};
        if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${answer.text}`);
        return id;
      };
      const organizationId = (await manage('/organizations', { name: 'Launch' })).id!;
      const applicationId = (await manage(`/application/${organizationId}`, { name: 'Launch Notes' })).id!;
      const publicKey = (await manage('/api-keys', { applicationId, type: 'public' })).key!;
      const appHeaders = { 'x-api-key': publicKey };

      let nextAddress = 0;
      const newAddress = () => `u${++nextAddress}@launch.bench.test`;

      /** One sign-in: start, the code from the emulator's store, verify; from one source address. */
      const signIn = async (email: string, record: SignInRecord, scheduled: number) => {
        const ip = freshIp();
        try {
          mail.forget(email);
          const started = await post('/auth/code/start', { email }, ip, appHeaders);
          const startedAt = performance.now();
          record.start = { status: started.status, ms: startedAt - scheduled };
          const startError = errorOf(started.body);
          if (startError) record.start.error = startError;
          if (started.status !== 200) return;
          const code = await mail.code(email, 60_000);
          const verifyFrom = performance.now();
          record.mailMs = verifyFrom - startedAt;
          const verified = await post('/auth/code/verify', { email, code }, ip, appHeaders);
          record.verify = { status: verified.status, ms: performance.now() - verifyFrom };
          const verifyError = errorOf(verified.body);
          if (verifyError) record.verify.error = verifyError;
        } catch (error) {
          record.failure = (error as Error).message;
        }
      };

      // Returning users: each signed in once before the runs of its rate (closed loop, no hold), then
      // once in each of them: 3 starts of one address in all, what start allows in 10 minutes.
      const plans = rates.flatMap((rate) => holds.map((h) => ({ rate, hold: h, count: countOf(rate) })));
      const returningOf = (i: number) =>
        Math.floor((i + 1) * returningShare) > Math.floor(i * returningShare);
      const returningIn = (count: number) =>
        Array.from({ length: count }, (_, i) => i).filter(returningOf).length;
      const prepared = new Map<number, string[]>();
      const prepStarted = performance.now();
      let prepFailures = 0;
      for (const rate of rates) {
        const addresses = Array.from({ length: returningIn(countOf(rate)) }, () => newAddress());
        console.log(`${rate}/s: preparing ${addresses.length} returning users (one sign-in each, no hold)`);
        let next = 0;
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            while (next < addresses.length) {
              const record: SignInRecord = { returning: false, lagMs: 0 };
              await signIn(addresses[next++]!, record, performance.now());
              if (record.verify?.status !== 200) prepFailures++;
            }
          }),
        );
        prepared.set(rate, addresses);
        mail.clear();
      }
      console.log(
        `prepared in ${((performance.now() - prepStarted) / 1000).toFixed(0)} s (${prepFailures} failed)\n`,
      );

      const results: RunResult[] = [];
      for (const plan of plans) {
        const returningAddresses = [...(prepared.get(plan.rate) ?? [])];
        proxy.hold = plan.hold;
        proxy.reset();
        const records: SignInRecord[] = [];
        const pending: Array<Promise<void>> = [];
        const samples: number[] = [];
        const sampler = setInterval(() => samples.push(atServer), 50);
        const before = cpu();
        const t0 = performance.now() + 50;
        let launched = 0;
        await new Promise<void>((resolve) => {
          const tick = setInterval(() => {
            const now = performance.now();
            while (launched < plan.count && t0 + (launched * 1000) / plan.rate <= now) {
              const scheduled = t0 + (launched * 1000) / plan.rate;
              const returning = returningOf(launched);
              const record: SignInRecord = { returning, lagMs: now - scheduled };
              records.push(record);
              const email = returning ? returningAddresses.shift()! : newAddress();
              pending.push(signIn(email, record, scheduled));
              launched++;
            }
            if (launched >= plan.count) {
              clearInterval(tick);
              resolve();
            }
          }, 1);
        });
        const scheduleEnd = performance.now();
        const drained = await Promise.race([
          Promise.all(pending).then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), drainSeconds * 1000).unref()),
        ]);
        const after = cpu();
        clearInterval(sampler);
        const counts = proxy.counts();
        const wall = (after.at - before.at) / 1000;
        const share = (from: number, to: number) => Math.round(((to - from) / wall) * 100);

        const verified = records.filter((r) => r.verify?.status === 200);
        const otherErrors: Record<string, number> = {};
        const note = (what: string) => {
          otherErrors[what] = (otherErrors[what] ?? 0) + 1;
        };
        let verifyBusy = 0;
        let startBusy = 0;
        let unfinished = 0;
        for (const r of records) {
          if (r.failure) note(`failure: ${r.failure}`);
          else if (!r.start) unfinished++;
          else if (r.start.status !== 200) {
            if (r.start.error === 'RATE_LIMITED busy') startBusy++;
            else note(`start ${r.start.status} ${r.start.error ?? ''}`.trim());
          } else if (!r.verify) unfinished++;
          else if (r.verify.status !== 200) {
            if (r.verify.error === 'RATE_LIMITED busy') verifyBusy++;
            else note(`verify ${r.verify.status} ${r.verify.error ?? ''}`.trim());
          }
        }
        const verifyTimes = records.flatMap((r) => (r.verify ? [r.verify.ms] : []));
        const startTimes = records.flatMap((r) => (r.start ? [r.start.ms] : []));
        const lastEnd = after.at;
        const elapsed = (lastEnd - t0) / 1000;
        const result: RunResult = {
          hold: plan.hold,
          rate: plan.rate,
          planned: plan.count,
          returning: records.filter((r) => r.returning).length,
          scheduleSeconds: (scheduleEnd - t0) / 1000,
          elapsedSeconds: elapsed,
          completed: verified.length,
          achievedPerSecond: verified.length / elapsed,
          verifyBusy,
          startBusy,
          otherErrors,
          unfinished,
          drained,
          verifyTransactionsPerSignIn: (counts.byKind['sign-in']?.transactions ?? 0) / verified.length,
          transactionsPerSignIn: counts.transactions / verified.length,
          verifyMs: {
            p50: percentile(verifyTimes, 50),
            p99: percentile(verifyTimes, 99),
            max: Math.max(...verifyTimes),
          },
          startMs: {
            p50: percentile(startTimes, 50),
            p99: percentile(startTimes, 99),
            max: Math.max(...startTimes),
          },
          mailMs: {
            p50: percentile(
              records.flatMap((r) => (r.mailMs === undefined ? [] : [r.mailMs])),
              50,
            ),
            p99: percentile(
              records.flatMap((r) => (r.mailMs === undefined ? [] : [r.mailMs])),
              99,
            ),
          },
          lagMs: {
            p99: percentile(
              records.map((r) => r.lagMs),
              99,
            ),
            max: Math.max(...records.map((r) => r.lagMs)),
          },
          atServer: {
            mean: samples.reduce((sum, n) => sum + n, 0) / Math.max(1, samples.length),
            max: Math.max(0, ...samples),
          },
          cpu: {
            service: share(before.service, after.service),
            dynamodb: share(before.dynamodb, after.dynamodb),
            bench: share(before.bench, after.bench),
            machine: Math.round(
              ((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) *
                100,
            ),
            others: Math.max(
              0,
              share(before.machine.busy, after.machine.busy) -
                share(before.service, after.service) -
                share(before.dynamodb, after.dynamodb) -
                share(before.bench, after.bench),
            ),
          },
          cpuMsPerSignIn: {
            service: ((after.service - before.service) * 1000) / verified.length,
            dynamodb: ((after.dynamodb - before.dynamodb) * 1000) / verified.length,
            bench: ((after.bench - before.bench) * 1000) / verified.length,
          },
          proxy: counts,
        };
        results.push(result);
        console.log(runLine(result));
        if (!drained)
          console.log(`  (${unfinished} sign-ins still unanswered after --drain=${drainSeconds} s)`);
        mail.clear();
        // Let the last answers and the JVM settle before the next run.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }

      const markdown = report(results, hold);
      console.log(`\n${markdown}`);
      const head = (() => {
        try {
          const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
            cwd: ctx.repoRoot,
            encoding: 'utf8',
          });
          const changed = execFileSync('git', ['status', '--porcelain', '--', 'shared', 'functions'], {
            cwd: ctx.repoRoot,
            encoding: 'utf8',
          });
          return `${commit.trim()}${changed.trim() ? ' + uncommitted changes under shared/ or functions/' : ''}`;
        } catch {
          return 'unknown';
        }
      })();
      await writeFile(
        join(ctx.outDir, 'launch.json'),
        `${JSON.stringify(
          {
            at: new Date().toISOString(),
            commit: head,
            cores: availableParallelism(),
            loadAverageBefore: loadavg(),
            options: {
              rates,
              hold,
              holds,
              duration,
              count: ctx.options.count ?? null,
              returningShare,
              drainSeconds,
            },
            localSlots: LOCAL_SLOTS,
            runs: results,
          },
          null,
          2,
        )}\n`,
      );
    } finally {
      await writeFile(join(ctx.outDir, 'launch-service.log'), serviceLog);
      await stopAll();
    }
  },
};

const ms = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '–');

function runLine(r: RunResult): string {
  return (
    `hold ${r.hold} ms, ${r.rate}/s offered: ${r.completed}/${r.planned} signed in at ${r.achievedPerSecond.toFixed(0)}/s, ` +
    `${r.verifyBusy} busy, ${r.proxy.conflicts} conflicts, verify p99 ${ms(r.verifyMs.p99)} ms, ` +
    `CPU service ${r.cpu.service}% DynamoDB Local ${r.cpu.dynamodb}% bench ${r.cpu.bench}% machine ${r.cpu.machine}%`
  );
}

function report(results: RunResult[], hold: number): string {
  const errors = (r: RunResult) =>
    Object.values(r.otherErrors).reduce((sum, n) => sum + n, 0) + r.startBusy + r.unfinished;
  const dynamo = (r: RunResult) => {
    const operations = Object.values(r.proxy.byOperation);
    const requests = operations.reduce((sum, o) => sum + o.requests, 0);
    const time = operations.reduce((sum, o) => sum + o.requests * o.meanMs, 0);
    return { perSignIn: requests / r.completed, meanMs: time / Math.max(1, requests) };
  };
  const lines = [
    `Sign-ins into one application, open loop, transactions held ${hold} ms by the conflict proxy and not held.`,
    '',
    '| offered /s | hold ms | signed in | achieved /s | 429 busy | other errors | sign-in tx / sign-in | all tx / sign-in | conflicts | most sign-in tx naming one item | singleton writes on tx items | verify p50 ms | verify p99 ms | start p50 ms | start p99 ms |',
    '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...results.map(
      (r) =>
        `| ${r.rate} | ${r.hold} | ${r.completed} of ${r.planned} | ${r.achievedPerSecond.toFixed(1)} | ${r.verifyBusy} | ${errors(r)} | ` +
        `${r.verifyTransactionsPerSignIn.toFixed(2)} | ${r.transactionsPerSignIn.toFixed(2)} | ${r.proxy.conflicts} | ` +
        `${r.proxy.mostNamed['sign-in']?.transactions ?? 0} | ${r.proxy.singletonWritesOnTransactionItems} | ${ms(r.verifyMs.p50)} | ${ms(r.verifyMs.p99)} | ` +
        `${ms(r.startMs.p50)} | ${ms(r.startMs.p99)} |`,
    ),
    '',
    `Where the time goes: CPU in % of one core (the machine: of all ${availableParallelism()}, other work included); ` +
      `"at server": requests sent and not yet answered (the local server runs ${LOCAL_SLOTS} handlers at once); ` +
      'ceiling: the sign-ins per second all cores would carry at these CPU costs, nothing else running; ' +
      'DynamoDB Local: its mean answer time and the most requests waiting on it at once.',
    '',
    '| offered /s | hold ms | CPU service | CPU DynamoDB Local | CPU bench | CPU other processes | machine busy | CPU ms / sign-in: service, DynamoDB Local, bench | ceiling /s | at server mean (max) | DynamoDB requests / sign-in | DynamoDB Local mean ms (TransactWriteItems) | waiting on DynamoDB Local (max) | driver lag p99 ms |',
    '|--:|--:|--:|--:|--:|--:|--:|--|--:|--:|--:|--:|--:|--:|',
    ...results.map((r) => {
      const d = dynamo(r);
      const c = r.cpuMsPerSignIn;
      return (
        `| ${r.rate} | ${r.hold} | ${r.cpu.service}% | ${r.cpu.dynamodb}% | ${r.cpu.bench}% | ${r.cpu.others}% | ${r.cpu.machine}% | ` +
        `${ms(c.service)}, ${ms(c.dynamodb)}, ${ms(c.bench)} | ${ms((availableParallelism() * 1000) / (c.service + c.dynamodb + c.bench))} | ` +
        `${r.atServer.mean.toFixed(0)} (${r.atServer.max}) | ${d.perSignIn.toFixed(1)} | ${ms(d.meanMs)} ` +
        `(${ms(r.proxy.byOperation.TransactWriteItems?.meanMs ?? Number.NaN)}) | ${r.proxy.maxUpstream} | ${ms(r.lagMs.p99)} |`
      );
    }),
  ];
  const contended = results.flatMap((r) =>
    r.proxy.hotItems
      .filter((item) => item.conflicts > 0)
      .slice(0, 3)
      .map(
        (item) =>
          `${r.rate}/s, hold ${r.hold}: ${item.item.replace(/^[^:]*: /, '')} (${item.transactions} transactions, ${item.conflicts} cancelled)`,
      ),
  );
  if (contended.length > 0) lines.push('', 'Most contended items:', ...contended.map((line) => `- ${line}`));
  const other = results.flatMap((r) =>
    Object.entries(r.otherErrors).map(([what, n]) => `${r.rate}/s, hold ${r.hold}: ${what} × ${n}`),
  );
  if (other.length > 0) lines.push('', 'Other errors:', ...other.map((line) => `- ${line}`));
  return lines.join('\n');
}
