/**
 * AWS calls per request: every row of the call-budget table (fixtures/call-budgets/table.ts), measured
 * on the real handlers over HTTP against DynamoDB Local and the SES emulator, with an SDK middleware
 * counting DynamoDB commands, a counting signer and sealer (KMS Sign, Decrypt) and a counting mailer
 * (the SES send). Costs on AWS follow from these counts. test/http/call-budgets.test.ts asserts the
 * same rows; here each is printed as measured, marked where it differs from its budget.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BudgetApp, startBudgetApp } from '../fixtures/call-budgets/app.ts';
import { appPool, type Calls, expected, measure } from '../fixtures/call-budgets/budget.ts';
import { callBudgets } from '../fixtures/call-budgets/table.ts';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.ts';
import { freePort } from '../shared/local/ports.ts';
import { startSesLocal } from '../shared/local/ses-local.ts';
import type { Benchmark } from './types.ts';

/** Apps measuring rows side by side (`--apps=N`): a row counts its own app's calls alone. */
const DEFAULT_APPS = 4;

const same = (a: Calls, b: Calls) => JSON.stringify(a) === JSON.stringify(b);

export const callsBenchmark: Benchmark = {
  name: 'calls',
  description: 'DynamoDB, KMS and SES calls per request: every row of the call-budget table',
  async run(ctx) {
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const dynamo = await startDynamoDbLocal({ port: await freePort() });
    const ses = await startSesLocal({ port: await freePort() });
    const apps: BudgetApp[] = [];
    const lines = [
      '| request | case | status | DynamoDB calls | commands | KMS Sign | KMS Decrypt | SES send | budget |',
      '|---|---|--:|--:|---|--:|--:|--:|---|',
    ];
    let differing = 0;
    try {
      for (let i = 0; i < Number(ctx.options.apps ?? DEFAULT_APPS); i++) {
        apps.push(await startBudgetApp({ dynamodb: dynamo.endpoint, ses: ses.endpoint }));
      }
      const lend = appPool(apps);
      const measured = await Promise.all(
        callBudgets.map((budget) =>
          lend((app) => measure(app, budget)).then(
            ({ calls }) => ({ calls }),
            (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
          ),
        ),
      );
      callBudgets.forEach((budget, index) => {
        const result = measured[index] ?? { error: 'not measured' };
        const name = `${budget.route} | ${budget.scenario}`;
        if ('error' in result) {
          differing++;
          lines.push(`| ${name} | | | | | | | | failed: ${result.error.replaceAll('\n', ' ')} |`);
          return;
        }
        const { calls } = result;
        const budgeted = expected(budget);
        const verdict = same(calls, budgeted) ? 'as budgeted' : `differs: ${JSON.stringify(budgeted)}`;
        if (!same(calls, budgeted)) differing++;
        lines.push(
          `| ${name} | ${calls.status} | ${calls.dynamodb.length} | ${calls.dynamodb.join(', ')} | ${calls.kmsSign} | ${calls.kmsDecrypt} | ${calls.ses} | ${verdict} |`,
        );
      });
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await ses.stop();
      await dynamo.stop();
    }
    const markdown = lines.join('\n');
    console.log(markdown);
    console.log(`\n${callBudgets.length} requests measured, ${differing} differing from their budget`);
    await writeFile(join(ctx.outDir, 'calls.md'), `${markdown}\n`);
  },
};
