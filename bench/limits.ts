/**
 * Rate limits under concurrent hits (docs/security.md, "Rate limits": a burst within the limit is never
 * refused, and a lost race is decided again without unbounded rewrites): N hits of one subject at once
 * against DynamoDB Local, each read and counted as a route does it, and the writes each hit made.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../shared/clock.ts';
import { loadConfig } from '../shared/config.ts';
import { inMemoryCodeHasher } from '../shared/crypto/local-code-key.ts';
import { createDeps, type Deps } from '../shared/deps.ts';
import { AppError } from '../shared/errors.ts';
import { ensureTable } from '../shared/local/create-table.ts';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.ts';
import { freePort } from '../shared/local/ports.ts';
import { type Limit, limits } from '../shared/rate-limit/limits.ts';
import { consume, rateLogRead } from '../shared/rate-limit/rate-limit.ts';
import { startSignIn } from '../shared/sign-in/start.ts';
import { readRecords } from '../shared/store/reads.ts';
import type { Benchmark } from './types.ts';

const SIZES = [10, 30, 60];
const WRITES = new Set(['UpdateItemCommand', 'TransactWriteItemsCommand']);

type Outcome = 'allowed' | 'limited' | 'busy' | 'failed';

interface Row {
  scenario: string;
  clock: string;
  hits: number;
  expected: number;
  outcomes: Record<Outcome, number>;
  writesMean: number;
  writesMax: number;
  burstMs: number;
}

/** The hit a write belongs to, so each hit's writes are counted apart. */
const currentHit = new AsyncLocalStorage<{ writes: number }>();

function countWrites(deps: Deps): void {
  deps.db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const hit = currentHit.getStore();
      if (hit && WRITES.has(String(context.commandName))) hit.writes++;
      return next(args);
    },
    { step: 'initialize', name: 'limitsBenchWrites' },
  );
}

/** Every hit in the same millisecond (one container's clock under a burst). */
const standingStill = (at: number): Clock => ({ now: () => at });
/** No two readings alike, as across containers: each is at least a millisecond after the last. */
function ticking(from: number): Clock {
  const started = performance.now();
  let last = from;
  return { now: () => (last = Math.max(last + 1, from + performance.now() - started)) };
}

function outcomeOf(error: unknown): Outcome {
  if (!(error instanceof AppError)) return 'failed';
  if (error.code !== 'RATE_LIMITED') return 'failed';
  return error.details?.reason === 'busy' ? 'busy' : 'limited';
}

/** Runs `count` hits at once and tallies them. */
async function burst(count: number, hit: (index: number) => Promise<void>) {
  const outcomes: Record<Outcome, number> = { allowed: 0, limited: 0, busy: 0, failed: 0 };
  const started = performance.now();
  const writes = await Promise.all(
    Array.from({ length: count }, (_, index) => {
      const counted = { writes: 0 };
      return currentHit.run(counted, async () => {
        try {
          await hit(index);
          outcomes.allowed++;
        } catch (error) {
          outcomes[outcomeOf(error)]++;
          if (outcomeOf(error) === 'failed') console.error(error);
        }
        return counted.writes;
      });
    }),
  );
  const writesMean = writes.reduce((sum, n) => sum + n, 0) / count;
  const burstMs = performance.now() - started;
  return { outcomes, writesMean, writesMax: Math.max(...writes), burstMs };
}

/** One request's hit as poll, peek, verify and approve make it: the log comes with its read. */
async function limiterHit(deps: Deps, limit: Limit, subject: string) {
  const found = await readRecords(deps.db, { log: rateLogRead(limit, subject) });
  await consume(deps, limit, subject, found.log);
}

export const limitsBenchmark: Benchmark = {
  name: 'limits',
  description: 'rate-limit outcomes and writes per hit under N concurrent hits of one subject',
  async run(ctx) {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const dynamo = await startDynamoDbLocal({ port: await freePort() });
    const table = `bench-${randomUUID()}`;
    await ensureTable(dynamo.endpoint, table);
    const config = loadConfig({
      TABLE_NAME: table,
      ISSUER: 'https://auth.bench.test',
      MAIL_FROM: 'no-reply@bench.test',
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      LOG_LEVEL: 'silent',
    });
    const base = createDeps(config, {
      mailer: { send: async () => {}, isSuppressed: async () => false },
      codeHasher: inMemoryCodeHasher(),
    });
    countWrites(base);
    const withClock = (clock: Clock): Deps => ({ ...base, clock });
    const rows: Row[] = [];
    let subjects = 0;
    const fresh = () => `subject-${subjects++}`;

    try {
      for (const hits of SIZES) {
        const clocks: Array<[string, () => Clock]> = [
          ['same ms', () => standingStill(Date.now())],
          ['distinct ms', () => ticking(Date.now())],
        ];
        for (const [clockName, clockOf] of clocks) {
          const deps = withClock(clockOf());
          const within: Limit = { bucket: 'bench-within', max: 60, windowSeconds: 60 };
          const subject = fresh();
          rows.push({
            scenario: 'burst within the limit (60/min)',
            clock: clockName,
            hits,
            expected: hits,
            ...(await burst(hits, () => limiterHit(deps, within, subject))),
          });
          const over: Limit = { bucket: 'bench-over', max: 10, windowSeconds: 60 };
          const crowded = fresh();
          rows.push({
            scenario: 'over the limit (10/min)',
            clock: clockName,
            hits,
            expected: Math.min(hits, over.max),
            ...(await burst(hits, () => limiterHit(deps, over, crowded))),
          });
        }

        // A full log whose hits have all just left the window: every hit must prune to pass.
        const sliding: Limit = { bucket: 'bench-sliding', max: 60, windowSeconds: 60 };
        const subject = fresh();
        const earlier = Date.now() - 61_000;
        const filler = withClock(ticking(earlier));
        for (let i = 0; i < sliding.max; i++) await limiterHit(filler, sliding, subject);
        const later = withClock(ticking(Date.now()));
        rows.push({
          scenario: 'full log of expired hits (60/min)',
          clock: 'distinct ms',
          hits,
          expected: hits,
          ...(await burst(hits, () => limiterHit(later, sliding, subject))),
        });

        // start: both logs and the request in one TransactWriteItems (openRequest).
        const deps = withClock(ticking(Date.now()));
        const ip = `198.51.100.${hits}`;
        rows.push({
          scenario: `start, one IP (${limits.startPerIp.max}/min)`,
          clock: 'distinct ms',
          hits,
          expected: Math.min(hits, limits.startPerIp.max),
          ...(await burst(hits, (index) =>
            startSignIn(deps, {
              scope: 'platform',
              applicationId: null,
              email: `ip-${hits}-${index}@bench.test`,
              sourceIp: ip,
              userAgent: 'bench',
            }).then(() => undefined),
          )),
        });
        const email = `to-${hits}@bench.test`;
        rows.push({
          scenario: `start, one address (${limits.startPerRecipient.max}/10 min)`,
          clock: 'distinct ms',
          hits,
          expected: Math.min(hits, limits.startPerRecipient.max),
          ...(await burst(hits, (index) =>
            startSignIn(deps, {
              scope: 'platform',
              applicationId: null,
              email,
              sourceIp: `203.0.113.${index + 1}`,
              userAgent: 'bench',
            }).then(() => undefined),
          )),
        });
      }
    } finally {
      await dynamo.stop();
    }

    const lines = [
      '| scenario | clock | N | allowed (expected) | refused: limit | refused: busy | failed | writes/hit mean | max | burst ms |',
      '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
      ...rows.map(
        (r) =>
          `| ${r.scenario} | ${r.clock} | ${r.hits} | ${r.outcomes.allowed} (${r.expected}) | ${r.outcomes.limited} | ${r.outcomes.busy} | ${r.outcomes.failed} | ${r.writesMean.toFixed(2)} | ${r.writesMax} | ${Math.round(r.burstMs)} |`,
      ),
    ];
    const markdown = lines.join('\n');
    console.log(markdown);
    await writeFile(join(ctx.outDir, 'limits.md'), `${markdown}\n`);
  },
};
