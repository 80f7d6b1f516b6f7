import fc from 'fast-check';
import { inject } from 'vitest';

/**
 * fast-check seeded with the run's seed, which vitest.config.ts prints once per run: every property
 * sees the same inputs on every run, and `FC_SEED=<seed>` replays another run's. Property tests
 * import fast-check from here, never directly.
 */
fc.configureGlobal({ seed: inject('fcSeed') });

export default fc;
