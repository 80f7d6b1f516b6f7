import { loadConfig } from '../../shared/config.ts';
import { createDeps, type Deps } from '../../shared/deps.ts';
import type { StreamEvent } from '../../shared/store/stream-records.ts';
import { aggregate, aggregatorAccess } from '../../shared/tenancy/statistics-stream.ts';

let deps: Deps | undefined;

/** The statistics aggregator: the table's stream, counted (docs/data-model.md, Statistics). */
export const handler = async (event: StreamEvent) => {
  deps ??= createDeps(loadConfig(), {}, aggregatorAccess, 'the statistics aggregator');
  await aggregate(deps, event);
};
