/**
 * `npm run chaos -- --seed N --rate 0.05 --duration 60 [--clients 12] [--faults kind:rate,…]`
 * (docs/reliability.md): DynamoDB Local (in memory) and the SES emulator on free loopback ports, as
 * `npm start` starts them, then the chaos harness (bench/chaos/harness.ts). Prints the report and
 * writes it as JSON to bench/.out/chaos.json; exits 1 when an invariant was violated.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.ts';
import { FAULT_KIND_MEANING, FAULT_KINDS, parseFaultSettings } from '../../shared/local/faults.ts';
import { freePort } from '../../shared/local/ports.ts';
import { startSesLocal } from '../../shared/local/ses-local.ts';
import { runChaos } from './harness.ts';
import { formatReport } from './report.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const usage = [
  'usage: npm run chaos -- [--seed N] [--rate R] [--duration S] [--clients N] [--operations N] [--faults kind:rate,…]',
  '  --rate R      every fault kind at rate R (default 0.05); --faults names each kind and rate instead',
  '  --duration S  seconds with faults (default 60), then as long without (at most 30 s)',
  "  --lose-answers R  also drop this share of the service's answers on their way back (default 0)",
  '  --aim S       seconds of the aim phase: a lost answer for each write that met none (default 30, 0: none)',
  '  --attempts    also write every attempt, with the faults it met, to bench/.out/chaos-attempts.json',
  '  fault kinds (the share of calls each fails):',
  ...FAULT_KINDS.map((kind) => `    ${kind.padEnd(9)}${FAULT_KIND_MEANING[kind]}`),
].join('\n');

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        seed: { type: 'string' },
        rate: { type: 'string', default: '0.05' },
        duration: { type: 'string', default: '60' },
        clients: { type: 'string', default: '12' },
        operations: { type: 'string' },
        faults: { type: 'string' },
        'lose-answers': { type: 'string' },
        aim: { type: 'string', default: '30' },
        attempts: { type: 'boolean', default: false },
      },
      strict: true,
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();

const number = (name: string, text: string | undefined, min: number, max: number): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max)
    fail(`--${name} must be from ${min} to ${max}, not ${text}`);
  return value;
};

const rate = number('rate', values.rate, 0, 1)!;
const durationS = number('duration', values.duration, 1, 86_400)!;
const clients = Math.round(number('clients', values.clients, 1, 100)!);
const operations = number('operations', values.operations, 1, 10_000_000);
const loseAnswers = number('lose-answers', values['lose-answers'], 0, 1);
const aimS = number('aim', values.aim, 0, 3_600)!;
const outDir = join(import.meta.dirname, '..', '.out');
// --rate R: every kind at R; --faults: exactly as FAULTS spells it (shared/local/faults.ts).
const spec = values.faults ?? FAULT_KINDS.map((kind) => `${kind}:${rate}`).join(',');
const faults = (() => {
  try {
    return parseFaultSettings(spec, values.seed);
  } catch (error) {
    return fail((error as Error).message);
  }
})()!;

const stops: Array<() => Promise<void>> = [];
let code = 0;
try {
  await mkdir(outDir, { recursive: true });
  const dynamo = await startDynamoDbLocal({ port: await freePort() });
  stops.push(dynamo.stop);
  const ses = await startSesLocal({ port: await freePort() });
  stops.push(ses.stop);
  const report = await runChaos({
    dynamoEndpoint: dynamo.endpoint,
    sesEndpoint: ses.endpoint,
    faults,
    durationMs: durationS * 1000,
    ...(operations === undefined ? {} : { maxOperations: operations }),
    ...(loseAnswers === undefined ? {} : { loseAnswers }),
    aimMs: aimS * 1000,
    ...(values.attempts ? { attemptsFile: join(outDir, 'chaos-attempts.json') } : {}),
    clients,
    progress: (line) => process.stderr.write(`  ${line}\n`),
  });
  process.stdout.write(`${formatReport(report)}\n`);
  const file = join(outDir, 'chaos.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `\nreport: ${file}\nreplay: npm run chaos -- --seed ${report.seed} --faults ${spec} --duration ${durationS} --clients ${clients} --aim ${aimS}\n`,
  );
  code = report.violations.length > 0 ? 1 : 0;
} catch (error) {
  process.stderr.write(`chaos run failed: ${(error as Error).stack ?? error}\n`);
  code = 2;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
}
process.exit(code);
