/**
 * What the default stack costs a month while no one uses it, at the list prices of lib/prices.ts.
 * A region of scripts/docs.ts (docs/operations.md, "What it costs idle"). The counts below are what
 * the default stack's template holds: test/infra/idle-cost.test.ts counts them on the synthesized
 * template (lib/idle-cost.ts) and fails while they differ, or while the total passes the budget.
 */
import { dollars, IDLE_BUDGET_CENTS, PRICES, type PricedItem } from '../lib/prices.ts';
import { code, table } from './docs-markdown.ts';

/** The default stack's billed items (no context key but senderEmail), and what each one is. */
export const IDLE_STACK: Readonly<
  Record<Exclude<PricedItem, 'kmsRotation'>, { count: number; what: string }>
> = {
  kmsKey: { count: 2, what: 'KMS keys: the signing key (one generation) and the sealing key' },
  secret: { count: 1, what: 'Secrets Manager secret: the code-hash key' },
  alarmMetric: {
    count: 6,
    what: `Alarm metrics: ${['Api5xx', 'LambdaFailures', 'EmailsRefused', 'SesBounceRate', 'SesComplaintRate', 'StatisticsLag'].map(code).join(', ')}, one each`,
  },
  dashboard: { count: 0, what: 'CloudWatch dashboard (`-c dashboard=true`)' },
};

/** KMS keys that rotate by themselves (the sealing key): each of their first two rotations adds a month's price. */
export const ROTATING_KEYS = 1;

const monthly = (items: Readonly<Record<string, { count: number }>>) =>
  (Object.entries(items) as [PricedItem, { count: number }][]).reduce(
    (sum, [item, { count }]) => sum + PRICES[item].cents * count,
    0,
  );

/** The default stack's idle cost in cents. */
export const idleCents = (): number => monthly(IDLE_STACK);

export function renderIdleCost(): string {
  const stack = idleCents();
  const rotation = ROTATING_KEYS * PRICES.kmsRotation.cents;
  const rows = (Object.entries(IDLE_STACK) as [PricedItem, { count: number; what: string }][])
    .filter(([, { count }]) => count > 0)
    .map(([item, { count, what }]) => [
      what,
      String(count),
      dollars(PRICES[item].cents),
      dollars(PRICES[item].cents * count),
    ]);
  const sources = [...new Set(Object.values(PRICES).map((price) => price.source))];
  const read = [...new Set(Object.values(PRICES).map((price) => price.read))].sort();
  return [
    table(
      ['Billed while idle', 'How many', 'Price each, a month', 'A month'],
      [...rows, ['**The default stack**', '', '', `**${dollars(stack)}**`]],
    ),
    '',
    `- The budget ${code('test/infra/idle-cost.test.ts')} holds the template to: ${dollars(IDLE_BUDGET_CENTS)}.`,
    `- **Key rotation**: KMS rotates the sealing key every year ([security.md](security.md#provider-client-secrets)), ` +
      `and each of its first two rotations adds ${dollars(PRICES.kmsRotation.cents)} a month for good: ` +
      `${dollars(stack + rotation)} from the second year, ` +
      `${dollars(stack + 2 * rotation)} from the third, then no more. ` +
      'The signing keys are asymmetric: KMS does not rotate them (a new generation is a new key, ' +
      `${dollars(PRICES.kmsKey.cents)} a month while it is kept).`,
    `- **${code('-c dashboard=true')}** adds ${dollars(PRICES.dashboard.cents)} a month.`,
    `- Prices of us-east-1, read ${read.join(', ')} from ${sources.map((source) => `<${source}>`).join(', ')}.`,
  ].join('\n');
}
