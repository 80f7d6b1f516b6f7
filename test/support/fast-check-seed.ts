/** The fast-check seed when `FC_SEED` is not set: a constant, so a run is the same on every machine. */
const DEFAULT_FC_SEED = 20_261_123;

/**
 * The run's fast-check seed: `FC_SEED`, or the constant. vitest.config.ts provides it to every lane
 * (test/support/fast-check.ts reads it), so a property sees the same inputs in any lane it runs in.
 */
export function fastCheckSeed(value = process.env.FC_SEED): number {
  if (value === undefined || value === '') return DEFAULT_FC_SEED;
  const seed = Number(value);
  // fast-check seeds are 32-bit integers (it prints them so in a failure report).
  if (!Number.isInteger(seed) || (seed | 0) !== seed) {
    throw new Error(`FC_SEED must be a 32-bit integer, not ${JSON.stringify(value)}`);
  }
  return seed;
}
