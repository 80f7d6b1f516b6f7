import type { CallCounter } from '../../fixtures/call-counter.ts';
import type { Deps } from '../../shared/deps.ts';

/**
 * `startTestApp`'s `overrides` for a call-budget test: the app's signer and mailer counted by
 * `counter` (its DynamoDB client is counted by `counter.watch(app.deps)` once the app is up).
 */
export const countedBy =
  (counter: CallCounter) =>
  (defaults: Deps): Partial<Deps> => ({
    signer: counter.signer(defaults.signer),
    mailer: counter.mailer(defaults.mailer),
  });
