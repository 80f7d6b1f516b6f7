import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type BudgetApp, startBudgetApp } from '../../fixtures/call-budgets/app.ts';
import { appPool, expected, measure } from '../../fixtures/call-budgets/budget.ts';
import { callBudgets } from '../../fixtures/call-budgets/table.ts';

// Every row of the call-budget table (docs/data-model.md, "Calls per request", is written from it),
// measured on the real handlers over HTTP against DynamoDB Local and the SES emulator: its status and
// exactly its DynamoDB commands in order, KMS Sign and Decrypt calls and SES sends. Each row prepares
// its own state; four apps measure rows side by side, one row at a time each.
const APPS = 4;
const apps: BudgetApp[] = [];
const endpoints = { dynamodb: inject('dynamoEndpoint'), ses: inject('sesEndpoint') };
let lend: ReturnType<typeof appPool>;

beforeAll(async () => {
  for (let i = 0; i < APPS; i++) apps.push(await startBudgetApp(endpoints));
  lend = appPool(apps);
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

describe.concurrent('AWS calls per request', () => {
  it.each(callBudgets.map((budget) => [`${budget.route}: ${budget.scenario}`, budget] as const))(
    '%s',
    async (_, budget) => {
      const { calls, said } = await lend((app) => measure(app, budget));
      expect(calls, `${budget.route} (${budget.scenario}) answered ${said}`).toEqual(expected(budget));
    },
  );
});

describe('the call-budget table', () => {
  it('names each scenario of a route once', () => {
    const names = callBudgets.map((budget) => `${budget.route}: ${budget.scenario}`);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});
