/** Time source. Domain code never reads `Date.now()` directly, so tests can move time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
