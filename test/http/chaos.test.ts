import { expect, it } from 'vitest';
import { runChaos } from '../../bench/chaos/harness.ts';
import { formatReport } from '../../bench/chaos/report.ts';
import { parseFaultSettings } from '../../shared/local/faults.ts';
import { serviceEndpoint } from '../support/services.ts';

// docs/reliability.md: a short, fixed-seed chaos run over every flow, OAuth, MCP and social sign-in
// included. Faults at the SDK boundary (shared/local/faults.ts) must leave every invariant whole; a
// violation prints the report, with the seed and the request ids that show it. A short aim phase
// loses the answer of writes the faults missed (bench/chaos/writes.ts).
it('keeps every invariant through a short run of faults', async () => {
  const report = await runChaos({
    // Its statistics are checked, so its table has a stream (test/support/global-setup.ts).
    dynamoEndpoint: serviceEndpoint('dynamoStreamEndpoint'),
    sesEndpoint: serviceEndpoint('sesEndpoint'),
    faults: parseFaultSettings(
      'dynamodb:0.08,lost:0.08,latency:0.03,kms:0.05,ses:0.1,secrets:0.05',
      '20261127',
    )!,
    durationMs: 8_000,
    maxOperations: 300,
    calmMs: 1_000,
    aimMs: 2_000,
    clients: 4,
    ipBlock: 250,
  });
  expect(report.violations, formatReport(report)).toEqual([]);
  // The run did what it is for: faults of each family were injected, and every flow ran.
  expect(report.operations).toBeGreaterThan(150);
  expect(Object.keys(report.faults).some((name) => name.startsWith('dynamodb.'))).toBe(true);
  expect(report.faults.lost).toBeGreaterThan(0);
  expect(report.invariants.length).toBeGreaterThan(30);
  for (const route of ['oauthToken', 'oauthConsent', 'mcp', 'socialCallback', 'socialExchange'])
    expect(report.byRoute[route]?.['200'] ?? report.byRoute[route]?.['303'], route).toBeGreaterThan(0);
  // Lost answers were met per route write, drawn by the faults and aimed at the rest.
  expect(report.lostAnswers.summary.hit).toBeGreaterThan(0);
  expect(report.lostAnswers.summary.aimed).toBeGreaterThan(0);
  expect(report.lostAnswers.unattributed).toBe(0);
}, 180_000);
