import type { Deps } from '../../shared/deps.ts';

type Consumed = { CapacityUnits?: number };

/**
 * Capacity units of every DynamoDB command the app sends: asks each for
 * `ReturnConsumedCapacity: 'TOTAL'` (which changes nothing else) and adds up the answers.
 * For a request that only reads, the units are read units.
 */
export class CapacityMeter {
  units = 0;

  reset(): void {
    this.units = 0;
  }

  watch(deps: Deps): void {
    deps.db.client.middlewareStack.add(
      (next) => async (args) => {
        (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity;
        for (const entry of [consumed ?? []].flat()) this.units += entry.CapacityUnits ?? 0;
        return result;
      },
      { step: 'initialize', name: 'capacityMeter' },
    );
  }
}
