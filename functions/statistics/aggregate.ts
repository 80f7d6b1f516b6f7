import { loadConfig } from '../../shared/config.ts';
import { createDeps, type Deps } from '../../shared/deps.ts';
import { aggregatorAccess } from '../../shared/route-table/statistics-aggregator.ts';
import { aggregate, type StreamEvent } from '../../shared/tenancy/statistics-stream.ts';

let deps: Deps | undefined;

/** The statistics aggregator: the table's stream, counted (docs/data-model.md, Statistics). */
export const handler = async (event: StreamEvent) => {
  deps ??= createDeps(loadConfig(), {}, aggregatorAccess, 'the statistics aggregator');
  await aggregate(deps, event);
};
