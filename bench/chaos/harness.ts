/**
 * The chaos harness (docs/reliability.md): the real local server, with faults injected at the SDK
 * boundary (shared/local/faults.ts), driven by concurrent virtual clients (bench/chaos/clients.ts)
 * that retry as docs/api.md says and record what they were told; then faults stop, every client's
 * next attempt at each of its flows must succeed, the statistics aggregator catches up, and the
 * invariants (bench/chaos/invariants.ts) are checked against a Scan of the table.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { loadConfig } from '../../shared/config.ts';
import { inMemoryCodeHasher } from '../../shared/crypto/local-code-key.ts';
import { LocalSecretSealer } from '../../shared/crypto/local-secret-sealer.ts';
import { LocalSigner } from '../../shared/crypto/local-signer.ts';
import { createDeps, type Deps } from '../../shared/deps.ts';
import { ensureTable } from '../../shared/local/create-table.ts';
import { FaultPlan, type FaultSettings, mulberry32, withFaults } from '../../shared/local/faults.ts';
import { startServer } from '../../shared/local/server.ts';
import { createLogger } from '../../shared/log.ts';
import type { Mailer } from '../../shared/mail/mailer.ts';
import { VirtualClient } from './clients.ts';
import { startHosts } from './hosts.ts';
import { type Attempt, ChaosHttp, type Phase } from './http.ts';
import { type Check, Checks, checkAnswers, checkStatistics, checkTable, scanTable } from './invariants.ts';
import type { Inbox, Outcome } from './kit.ts';
import { Ledger, type Violation } from './ledger.ts';
import { type LostAnswerCoverage, WriteWatch } from './writes.ts';

export interface ChaosOptions {
  dynamoEndpoint: string;
  sesEndpoint: string;
  faults: FaultSettings;
  /** How long the clients run with faults on; then as long again (at most 30 s, at least 2 s) without. */
  durationMs: number;
  /** Stop starting new flows after this many operations (requests) in the faults phase. */
  maxOperations?: number;
  clients: number;
  /**
   * The share of the service's answers the harness drops on their way back while faults are on
   * (the client sees a network error and sends the request again); default 0.
   */
  loseAnswers?: number;
  /** How long the clients go on without faults (default: as long as with, at most 30 s, at least 2 s). */
  calmMs?: number;
  /**
   * How long the clients then go on while the harness aims a lost answer at each write that met
   * none (bench/chaos/writes.ts); default 30 s, 0 for none.
   */
  aimMs?: number;
  /** The second octet of the loopback source addresses (127.<block>.x.y), one per concurrent run. */
  ipBlock?: number;
  /**
   * Writes every attempt, in order, with the faults its request's DynamoDB calls met, to this file
   * (what a violation's request ids are looked up in).
   */
  attemptsFile?: string;
  /** Progress lines (the CLI prints them). */
  progress?: (line: string) => void;
}

export interface ChaosReport {
  seed: number;
  rates: FaultSettings['rates'];
  clients: number;
  durationMs: { faults: number; calm: number; aim: number; total: number };
  operations: number;
  /** Requests by route and status, every attempt counted. */
  byRoute: Record<string, Record<string, number>>;
  byStatus: Record<string, number>;
  faults: Record<string, number>;
  /** The same by the SDK command or adapter call each hit. */
  faultsByCall: Record<string, number>;
  retries: number;
  gaveUp: number;
  /** Answers the harness dropped after the service sent them (`loseAnswers`). */
  answersLost: number;
  flows: Record<string, Record<Outcome, number>>;
  /** Sign-ins refused, by the answer that refused them. */
  refusals: Record<string, number>;
  latency: Record<'faults' | 'pause' | 'calm', { count: number; p50: number; p99: number; max: number }>;
  /** The slowest answers, with their request ids (to find them in the service's log). */
  slowest: Array<Pick<Attempt, 'route' | 'status' | 'requestId' | 'phase'> & { ms: number }>;
  invariants: Array<{ name: string; checked: number; violated: number }>;
  violations: Array<Violation & { seed: number }>;
  /** 500s the service logged, by cause (the unhandled error's name and message). */
  internalErrors: Record<string, number>;
  /** Lost answers per route write, and the route writes that met none, with why (bench/chaos/writes.ts). */
  lostAnswers: LostAnswerCoverage;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The faults phase pauses its faults for PAUSE_MS of every PAUSE_CYCLE_MS. */
const PAUSE_CYCLE_MS = 10_000;
const PAUSE_MS = 2_000;

/** The mailer, with what it accepted kept for the clients (as a user reads the inbox). */
function inboxOf(mailer: Mailer): { mailer: Mailer; inbox: Inbox } {
  const codes = new Map<string, string>();
  return {
    mailer: {
      isSuppressed: (address) => mailer.isSuppressed(address),
      async send(message) {
        await mailer.send(message);
        const code = /\b[A-Z2-9]{4}-[A-Z2-9]{4}\b/.exec(message.text)?.[0];
        if (code) codes.set(message.to, code);
      },
    },
    inbox: {
      take(email) {
        const code = codes.get(email);
        codes.delete(email);
        return code;
      },
    },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function latencyOf(attempts: readonly Attempt[], phase: Phase) {
  const sorted = attempts
    .filter((attempt) => attempt.phase === phase)
    .map((attempt) => attempt.ms)
    .sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
  };
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const { seed } = options.faults;
  const say = options.progress ?? (() => undefined);
  const table = `chaos-${randomUUID()}`;
  await ensureTable(options.dynamoEndpoint, table);
  // The MCP client's metadata document and the social providers, on HTTPS hosts of a test CA.
  const hosts = await startHosts();
  const config = loadConfig({
    ...hosts.env,
    TABLE_NAME: table,
    ISSUER: 'https://auth.chaos.test',
    // As the stack always sets it (one UpdateItem per sign-in email), high enough never to refuse.
    MAX_CODE_EMAILS_PER_HOUR: '1000000',
    MAIL_FROM: 'no-reply@doorcode.test',
    PLATFORM_ORIGINS: 'https://app.chaos.test',
    DYNAMODB_ENDPOINT: options.dynamoEndpoint,
    SES_ENDPOINT: options.sesEndpoint,
    SES_CONFIGURATION_SET: 'doorcode-chaos',
    LOG_LEVEL: 'error',
  });
  const internalErrors: Record<string, number> = {};
  const logger = createLogger('error', (line) => {
    const entry = JSON.parse(line) as {
      level?: string;
      message?: string;
      errorName?: string;
      errorMessage?: string;
      error?: string;
    };
    // The request lines of 5xx answers and the metrics documents say nothing of a cause.
    if (entry.level !== 'error' || entry.message === 'request') return;
    const cause =
      `${entry.message}: ${entry.errorName ?? ''} ${entry.errorMessage ?? entry.error ?? ''}`.trim();
    internalErrors[cause] = (internalErrors[cause] ?? 0) + 1;
  });
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
  const base = createDeps(config, {
    signer: new LocalSigner(pem),
    codeHasher: inMemoryCodeHasher(),
    sealer: new LocalSecretSealer(randomBytes(32)),
    logger,
  });
  const plan = new FaultPlan(options.faults);
  plan.active = false;
  const faulted = withFaults(base, plan);
  const { mailer, inbox } = inboxOf(faulted.mailer);
  const deps: Deps = { ...faulted, mailer };
  const writes = new WriteWatch();
  writes.watch(deps.db.client);
  const server = await startServer({ port: 0, deps });
  const http = new ChaosHttp(server.url, options.ipBlock ?? 100 + (seed % 100));
  writes.attribute(server.server, (address) => http.requestFrom(address));
  const ledger = new Ledger();
  if (options.loseAnswers) {
    http.loseAnswers = { rate: options.loseAnswers, random: mulberry32(seed ^ 0x1057), ledger };
  }
  const clientRandom = mulberry32(seed ^ 0x5eed);
  const clients = Array.from(
    { length: options.clients },
    (_, i) =>
      new VirtualClient(i, http, ledger, inbox, mulberry32((clientRandom() * 2 ** 32) >>> 0), hosts, {
        issuer: config.ISSUER,
        serviceName: config.SERVICE_NAME,
      }),
  );
  const flows: Record<string, Record<Outcome, number>> = {};
  const count = (flow: string, outcome: Outcome) => {
    flows[flow] ??= { ok: 0, refused: 0, ambiguous: 0, skipped: 0 };
    flows[flow][outcome]++;
  };

  try {
    say(`set-up: ${options.clients} clients`);
    await Promise.all(clients.map((client) => client.setUp()));

    // Faults on: every client runs flows until the time or the operations are spent.
    http.phase = 'faults';
    plan.active = true;
    const faultsStarted = performance.now();
    const operationsAtStart = http.attempts.length;
    const spent = () =>
      performance.now() - faultsStarted >= options.durationMs ||
      (options.maxOperations !== undefined &&
        http.attempts.length - operationsAtStart >= options.maxOperations);
    const harnessErrors: string[] = [];
    const drive = async (client: VirtualClient, until: () => boolean, among?: () => Set<string>) => {
      while (!until()) {
        const flow = client.pickFlow(among?.());
        http.running.set(client.id, flow.name);
        try {
          count(flow.name, await flow.run());
          await client.afterFlow();
        } catch (error) {
          harnessErrors.push(`${flow.name}: ${(error as Error).stack ?? error}`);
          count(flow.name, 'refused');
        }
      }
    };
    const ticker = setInterval(
      () => say(`faults: ${http.attempts.length} requests, ${JSON.stringify(plan.counts())}`),
      5_000,
    );
    // Of every PAUSE_CYCLE_MS, the last PAUSE_MS run without faults: latency with and without, measured
    // at the same moment of the run (same load, same table), side by side.
    const pauses = setInterval(() => {
      const inPause = (performance.now() - faultsStarted) % PAUSE_CYCLE_MS >= PAUSE_CYCLE_MS - PAUSE_MS;
      plan.active = !inPause;
      http.phase = inPause ? 'pause' : 'faults';
    }, 50);
    await Promise.all(clients.map((client) => drive(client, spent)));
    clearInterval(ticker);
    clearInterval(pauses);
    const faultsMs = performance.now() - faultsStarted;

    // Faults off: the same clients go on (latency without faults, in the same run).
    plan.active = false;
    http.phase = 'calm';
    const calmMs = options.calmMs ?? Math.min(30_000, Math.max(2_000, faultsMs));
    const calmStarted = performance.now();
    say(`calm: ${Math.round(calmMs / 1000)} s without faults`);
    await Promise.all(
      clients.map((client) => drive(client, () => performance.now() - calmStarted >= calmMs)),
    );

    // The writes that met no lost answer meet one now, aimed, with the fault plan off.
    const aimMs = options.aimMs ?? 30_000;
    if (aimMs > 0) {
      http.phase = 'aim';
      writes.aiming = true;
      const aimStarted = performance.now();
      say(`aim: ${Math.round(aimMs / 1000)} s, a lost answer for each write that met none`);
      // Each client runs the flows that sent a write still without a lost answer, until none is left.
      await Promise.all(
        clients.map((client) =>
          drive(
            client,
            () => {
              const wanted = writes.wanted();
              return (
                performance.now() - aimStarted >= aimMs || !client.flows.some((flow) => wanted.has(flow.name))
              );
            },
            () => writes.wanted(),
          ),
        ),
      );
      writes.aiming = false;
    }

    // Every client's next attempt at each of its flows succeeds.
    http.phase = 'final';
    say('final: every flow once per client, without faults');
    await Promise.all(
      clients.map(async (client) => {
        await client.enableOne();
        for (const flow of client.flows) {
          http.running.set(client.id, flow.name);
          const outcome = await flow.run().catch((error: unknown) => {
            harnessErrors.push(`final ${flow.name}: ${(error as Error).stack ?? error}`);
            return 'refused' as const;
          });
          count(`final ${flow.name}`, outcome);
          const last = [...http.attempts].reverse().find((a) => a.client === client.id);
          ledger.expect(
            'after faults stop, the next attempt succeeds',
            outcome === 'ok' || outcome === 'skipped',
            () => `client ${client.id}: ${flow.name} was ${outcome} without faults`,
            last?.requestId ? [last.requestId] : [],
          );
        }
      }),
    );
    for (const error of harnessErrors) ledger.violate('the harness runs', error);

    // The statistics aggregator catches up, then the table is read whole.
    say('checking: the aggregator catches up, then the table is scanned');
    for (let tries = 1; ; tries++) {
      try {
        await server.statisticsCaughtUp();
        break;
      } catch (error) {
        if (tries >= 5) throw error;
        await sleep(200);
      }
    }
    const statistics = new Map<
      string,
      { totals: { users: number; newUsers: number; signIns: number; activeSessions: number } }
    >();
    for (const client of clients) {
      const answer = await http.call(
        client.id,
        'check',
        'getStatistics',
        { applicationId: client.application.id },
        {
          headers: { 'x-api-key': client.application.secretKey },
        },
      );
      if (answer.status === 200) statistics.set(client.application.id, answer.body);
      else
        ledger.violate(
          'statistics are read',
          `statistics of ${client.application.id} answered ${answer.status}`,
          answer.requestIds,
        );
      const configuration = await http.call(
        client.id,
        'check',
        'getConfiguration',
        { applicationId: client.application.id },
        { headers: { 'x-api-key': client.application.secretKey } },
      );
      ledger.expect(
        'a configuration holds its last told value',
        configuration.status === 200 && client.origins.has(configuration.body.origin),
        () =>
          `configuration of ${client.application.id}: origin ${configuration.body?.origin}, told ${[...client.origins].join(' | ')}`,
        configuration.requestIds,
      );
    }
    if (options.attemptsFile) {
      const traced = http.attempts.map((attempt) => ({
        ...attempt,
        ...(attempt.requestId ? { faultsMet: writes.failuresOf(attempt.requestId) } : {}),
      }));
      await writeFile(options.attemptsFile, `${JSON.stringify(traced)}\n`);
    }
    const view = await scanTable(options.dynamoEndpoint, table);
    const checks = checkAnswers(http.attempts, new Checks());
    checkTable(view, ledger, checks);
    checkStatistics(view, ledger, statistics, checks);
    // What the service's DynamoDB calls met in the requests a violation names.
    const faultsMet = (violation: Violation) =>
      violation.requestIds.flatMap((id) => writes.failuresOf(id).map((failure) => ({ id, failure })));
    for (const violation of [
      ...ledger.violations,
      ...[...checks.all.values()].flatMap((check) => check.violations),
    ]) {
      const met = faultsMet(violation).map(({ id, failure }) => `${id.slice(0, 8)}: ${failure}`);
      if (met.length > 0) violation.message += ` [faults met: ${met.join('; ')}]`;
    }
    for (const violation of ledger.violations) {
      const check = checks.all.get(violation.invariant) ?? {
        name: violation.invariant,
        checked: 0,
        violations: [],
      };
      check.violations.push(violation);
      checks.all.set(violation.invariant, check);
    }
    // The clients' own checks, counted as they ran.
    for (const [name, checked] of ledger.tested) {
      const check: Check = checks.all.get(name) ?? { name, checked: 0, violations: [] };
      check.checked += checked;
      checks.all.set(name, check);
    }

    const byRoute: Record<string, Record<string, number>> = {};
    const byStatus: Record<string, number> = {};
    const driven = new Map<string, number>();
    for (const attempt of http.attempts) {
      driven.set(attempt.route, (driven.get(attempt.route) ?? 0) + 1);
      const status = String(attempt.status);
      byRoute[attempt.route] ??= {};
      byRoute[attempt.route]![status] = (byRoute[attempt.route]![status] ?? 0) + 1;
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    }
    const all = [...checks.all.values()].sort((a, b) => a.name.localeCompare(b.name));
    return {
      seed,
      rates: options.faults.rates,
      clients: options.clients,
      durationMs: {
        faults: Math.round(faultsMs),
        calm: Math.round(calmMs),
        aim: aimMs,
        total: Math.round(performance.now() - faultsStarted),
      },
      operations: http.attempts.length,
      byRoute,
      byStatus,
      faults: plan.counts(),
      faultsByCall: plan.countsByCall(),
      retries: http.retries,
      gaveUp: http.gaveUp,
      answersLost: http.answersLost,
      flows,
      refusals: Object.fromEntries([...ledger.refusals].sort(([, a], [, b]) => b - a)),
      latency: {
        faults: latencyOf(http.attempts, 'faults'),
        pause: latencyOf(http.attempts, 'pause'),
        calm: latencyOf(http.attempts, 'calm'),
      },
      slowest: [...http.attempts]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 10)
        .map(({ route, status, requestId, phase, ms }) => ({
          route,
          status,
          ...(requestId ? { requestId } : {}),
          phase,
          ms: Math.round(ms),
        })),
      invariants: all.map((check) => ({
        name: check.name,
        checked: check.checked,
        violated: check.violations.length,
      })),
      violations: all.flatMap((check) => check.violations.map((violation) => ({ ...violation, seed }))),
      internalErrors,
      lostAnswers: writes.coverage(driven),
    };
  } finally {
    plan.active = false;
    await server.close();
    await hosts.close();
  }
}
