/**
 * The list prices (us-east-1, USD) of what the stack bills by the month whether or not anyone uses
 * it: the idle cost that docs/operations.md ("What it costs idle") states, computed from a
 * synthesized template by lib/idle-cost.ts. Amounts are in cents so sums stay exact.
 *
 * `read` is the day each price was last checked against its `source` page; a price that changes is
 * one edit here, then `npm run docs`.
 */
export interface Price {
  /** US cents a month for one `unit`. */
  readonly cents: number;
  readonly unit: string;
  /** The AWS pricing page the figure is read from. */
  readonly source: string;
  /** ISO date the figure was read. */
  readonly read: string;
}

const READ = '2026-11-27';

export const PRICES = {
  kmsKey: {
    cents: 100,
    unit: 'KMS key (customer managed, symmetric or asymmetric), a month',
    source: 'https://aws.amazon.com/kms/pricing/',
    read: READ,
  },
  /**
   * Automatic rotation keeps every backing key: each of a key's first two rotations adds this much a
   * month, for good; later rotations add nothing (the surcharge is capped at the second rotation).
   */
  kmsRotation: {
    cents: 100,
    unit: 'rotation of a KMS key with automatic rotation, for each of its first two rotations, a month',
    source: 'https://aws.amazon.com/kms/pricing/',
    read: READ,
  },
  secret: {
    cents: 40,
    unit: 'Secrets Manager secret, a month',
    source: 'https://aws.amazon.com/secrets-manager/pricing/',
    read: READ,
  },
  /** A standard-resolution alarm costs this per metric it reads: a metric-math alarm pays for each. */
  alarmMetric: {
    cents: 10,
    unit: 'metric of a standard-resolution alarm, a month',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    read: READ,
  },
  dashboard: {
    cents: 300,
    unit: 'CloudWatch dashboard, a month',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    read: READ,
  },
} as const satisfies Record<string, Price>;

export type PricedItem = keyof typeof PRICES;

/** The most the default stack may cost a month while idle (docs/operations.md). */
export const IDLE_BUDGET_CENTS = 300;

/** `290` -> `$2.90`. */
export const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
