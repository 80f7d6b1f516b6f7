/** The chaos run's report as text (docs/reliability.md shows one). */
import type { ChaosReport } from './harness.ts';

const pad = (text: string | number, width: number) => String(text).padEnd(width);
const padLeft = (text: string | number, width: number) => String(text).padStart(width);

export function formatReport(report: ChaosReport): string {
  const lines: string[] = [];
  const rates = Object.entries(report.rates)
    .filter(([, rate]) => rate > 0)
    .map(([kind, rate]) => `${kind}:${rate}`)
    .join(',');
  lines.push(
    `chaos run: seed ${report.seed}, FAULTS=${rates}, ${report.clients} clients, ` +
      `${(report.durationMs.faults / 1000).toFixed(1)} s with faults + ${(report.durationMs.calm / 1000).toFixed(1)} s without` +
      ` + ${(report.durationMs.aim / 1000).toFixed(1)} s aiming lost answers`,
    '',
    `operations ${report.operations}   retries ${report.retries}   waits given up ${report.gaveUp}` +
      (report.answersLost > 0 ? `   answers lost on the way back ${report.answersLost}` : ''),
    '',
    'answers by status',
    ...Object.entries(report.byStatus).map(([status, n]) => `  ${pad(status, 6)}${padLeft(n, 8)}`),
    '',
    'faults injected',
    ...Object.entries(report.faults).map(([name, n]) => `  ${pad(name, 26)}${padLeft(n, 8)}`),
    '',
    'latency (ms)          count      p50      p99      max',
    ...(['faults', 'pause', 'calm'] as const).map((phase) => {
      const l = report.latency[phase];
      const name = { faults: 'with faults', pause: 'in the pauses', calm: 'after faults' }[phase];
      return `  ${pad(name, 18)}${padLeft(l.count, 7)}${padLeft(l.p50, 9)}${padLeft(l.p99, 9)}${padLeft(l.max, 9)}`;
    }),
    '',
    'slowest answers',
    ...report.slowest.map(
      (a) =>
        `  ${padLeft(a.ms, 7)} ms  ${pad(a.route, 26)}${pad(a.status, 5)}${pad(a.phase, 8)}${a.requestId ?? ''}`,
    ),
    '',
    'operations by route and status',
    ...Object.entries(report.byRoute)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([route, statuses]) =>
          `  ${pad(route, 28)}${Object.entries(statuses)
            .map(([status, n]) => `${status}:${n}`)
            .join('  ')}`,
      ),
    '',
    'flows (ok / refused / ambiguous / skipped)',
    ...Object.entries(report.flows)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([flow, o]) => `  ${pad(flow, 30)}${o.ok} / ${o.refused} / ${o.ambiguous} / ${o.skipped}`),
    '',
    'sign-ins refused, by answer',
    ...Object.entries(report.refusals).map(([why, n]) => `  ${padLeft(n, 6)}  ${why}`),
    '',
    'invariants (checked, violated)',
    ...report.invariants.map(
      (check) =>
        `  ${check.violated > 0 ? 'FAIL' : 'ok  '} ${pad(check.name, 62)}${padLeft(check.checked, 7)}${padLeft(check.violated, 5)}`,
    ),
  );
  const { lostAnswers } = report;
  const { summary } = lostAnswers;
  const notHit = summary.writes - summary.hit - summary.aimed;
  const row = (write: (typeof lostAnswers.writes)[number]) =>
    `  ${pad(write.route, 28)}${pad(write.command, 20)}${padLeft(write.attempts, 8)}${padLeft(write.lost, 6)}${padLeft(write.aimed, 6)}  ${write.items ?? '-'}`;
  lines.push(
    '',
    `lost answers per route write: ${summary.writes} writes; ${summary.hit} met one the faults drew, ` +
      `${summary.aimed} only one aimed at them, ${notHit} none` +
      (lostAnswers.unattributed > 0 ? ` (${lostAnswers.unattributed} write attempts of no request)` : ''),
    `  ${pad('route', 28)}${pad('command', 20)}${padLeft('attempts', 8)}${padLeft('lost', 6)}${padLeft('aimed', 6)}  items`,
    ...lostAnswers.writes.filter((write) => write.lost + write.aimed > 0).map(row),
    `route writes that met no lost answer (${notHit}), by reason`,
    ...Object.entries(summary.notHit).map(([why, n]) => `  ${padLeft(n, 6)}  ${why}`),
    ...lostAnswers.writes
      .filter((write) => write.lost + write.aimed === 0)
      .map(
        (write) => `  ${pad(write.route, 28)}${pad(write.command, 20)}${write.items ?? '-'}: ${write.why}`,
      ),
  );
  if (Object.keys(report.internalErrors).length > 0) {
    lines.push('', '500s the service logged, by cause');
    for (const [cause, n] of Object.entries(report.internalErrors).sort(([, a], [, b]) => b - a)) {
      lines.push(`  ${padLeft(n, 6)}  ${cause.slice(0, 160)}`);
    }
  }
  lines.push('', `${report.violations.length} violation(s)`);
  for (const violation of report.violations.slice(0, 50)) {
    lines.push(
      `  [${violation.invariant}] ${violation.message} (seed ${violation.seed}; requests ${violation.requestIds.join(', ') || 'none'})`,
    );
  }
  if (report.violations.length > 50)
    lines.push(`  … and ${report.violations.length - 50} more in the JSON report`);
  return lines.join('\n');
}
