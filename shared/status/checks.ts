import type { Deps } from '../deps.ts';
import { probeTable } from '../store/health.ts';

export type CheckStatus = 'ok' | 'degraded' | 'down';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  latencyMs: number;
  message?: string;
}

/** A check slower than this is `degraded` (docs/api.md, Endpoints: `GET /status`). */
const DEGRADED_AFTER_MS = 400;
/** A check that has not answered by then is `down`, so /status itself stays fast. */
const DOWN_AFTER_MS = 3000;

const order: Record<CheckStatus, number> = { ok: 0, degraded: 1, down: 2 };

const worst = (statuses: CheckStatus[]): CheckStatus =>
  statuses.reduce<CheckStatus>((acc, status) => (order[status] > order[acc] ? status : acc), 'ok');

type Probe = (deps: Deps) => Promise<void>;

const probes: Record<string, Probe> = {
  database: ({ db }) => probeTable(db),
  'signing-keys': async ({ signer }) => {
    const keys = await signer.publicKeys();
    if (keys.length === 0) throw new Error('no signing key is configured');
  },
};

async function runProbe(name: string, probe: Probe, deps: Deps): Promise<CheckResult> {
  const started = deps.clock.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DOWN_AFTER_MS} ms`)), DOWN_AFTER_MS);
  });
  try {
    await Promise.race([probe(deps), timeout]);
    const latencyMs = deps.clock.now() - started;
    return latencyMs > DEGRADED_AFTER_MS
      ? { name, status: 'degraded', latencyMs, message: `slower than ${DEGRADED_AFTER_MS} ms` }
      : { name, status: 'ok', latencyMs };
  } catch (error) {
    deps.logger.log('warn', 'status check failed', { check: name, errorName: (error as Error).name });
    // The reason is summarised, never the raw provider message (it may name internal resources).
    const message = name === 'signing-keys' ? 'signing keys unavailable' : 'database unreachable';
    return { name, status: 'down', latencyMs: deps.clock.now() - started, message };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check in parallel; the report's status is the worst of them. */
export async function statusReport(deps: Deps) {
  const checks = await Promise.all(
    Object.entries(probes).map(([name, probe]) => runProbe(name, probe, deps)),
  );
  return {
    status: worst(checks.map((check) => check.status)),
    service: deps.config.SERVICE_NAME,
    timestamp: new Date(deps.clock.now()).toISOString(),
    checks,
  };
}
