import type { Deps } from '../../shared/deps.ts';
import { type RouteId, routeList } from '../../shared/routes.ts';
import { type ItemFamily, keyFamilies } from '../../shared/store/keys.ts';

/** A partition a DynamoDB command touched: of the table (`pk`) or of an index (`gsi1pk`, `gsi2pk`). */
export interface TouchedPartition {
  readonly command: string;
  readonly partition: 'table' | 'index';
  readonly value: string;
}

type Input = Record<string, any>;

/** A string attribute as the DocumentClient gives it (`'x'`) or marshalled (`{ S: 'x' }`). */
const text = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && typeof (value as { S?: unknown }).S === 'string'
      ? (value as { S: string }).S
      : undefined;

/**
 * Every partition key a command names, as IAM sees it for `dynamodb:LeadingKeys`: the `pk` of each
 * key and item (also inside batches and transactions), and the partition value of a Query's key
 * condition, on the table or on the index it names. A command it cannot read (a Scan) yields an
 * `unreadable` partition, which no family matches.
 */
function touchedPartitions(command: string, input: Input): TouchedPartition[] {
  const touched: TouchedPartition[] = [];
  const table = (item: Input | undefined) => {
    touched.push({ command, partition: 'table', value: text(item?.pk) ?? '<no pk>' });
  };
  switch (command) {
    case 'GetItemCommand':
    case 'GetCommand':
    case 'UpdateItemCommand':
    case 'UpdateCommand':
    case 'DeleteItemCommand':
    case 'DeleteCommand':
      table(input.Key);
      break;
    case 'PutItemCommand':
    case 'PutCommand':
      table(input.Item);
      break;
    case 'QueryCommand': {
      const names: Record<string, string> = input.ExpressionAttributeNames ?? {};
      const values: Record<string, unknown> = input.ExpressionAttributeValues ?? {};
      const partitionKey = input.IndexName ? `${input.IndexName}pk` : 'pk';
      let value: string | undefined;
      for (const [, name, placeholder] of String(input.KeyConditionExpression).matchAll(
        /(#?\w+)\s*=\s*(:\w+)/g,
      )) {
        if ((names[name!] ?? name) === partitionKey) value = text(values[placeholder!]);
      }
      touched.push({
        command,
        partition: input.IndexName ? 'index' : 'table',
        value: value ?? '<unreadable>',
      });
      break;
    }
    case 'BatchGetItemCommand':
    case 'BatchGetCommand':
      for (const request of Object.values<Input>(input.RequestItems ?? {})) {
        for (const key of request.Keys ?? []) table(key);
      }
      break;
    case 'BatchWriteItemCommand':
    case 'BatchWriteCommand':
      for (const requests of Object.values<Input[]>(input.RequestItems ?? {})) {
        for (const request of requests) table(request.PutRequest?.Item ?? request.DeleteRequest?.Key);
      }
      break;
    case 'TransactWriteItemsCommand':
    case 'TransactWriteCommand':
      for (const item of input.TransactItems ?? []) {
        table(item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key);
      }
      break;
    case 'TransactGetItemsCommand':
    case 'TransactGetCommand':
      for (const item of input.TransactItems ?? []) table(item.Get?.Key);
      break;
    default:
      touched.push({ command, partition: 'table', value: '<unreadable>' });
  }
  return touched;
}

/** `APP#*` -> a RegExp for IAM's `StringLike`. */
const likePattern = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** The families whose pattern the partition matches (more than one only for `USER#` on gsi1 vs the table: never both). */
export function familiesOf(touched: TouchedPartition): ItemFamily[] {
  return (Object.entries(keyFamilies) as Array<[ItemFamily, (typeof keyFamilies)[ItemFamily]]>)
    .filter(
      ([, family]) =>
        family.partition === touched.partition && likePattern(family.pattern).test(touched.value),
    )
    .map(([name]) => name);
}

/** The route that serves `method path` (path without its query), as API Gateway would choose it. */
export function routeOf(method: string, target: string): RouteId | undefined {
  const path = target.split('?')[0]!;
  const match = (pattern: string) =>
    new RegExp(`^${pattern.replace(/\{[^}]+\+\}/g, '.+').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
  const candidates = routeList.filter(
    (route) => route.method === method && [route.path, ...(route.alsoAt ?? [])].some(match),
  );
  // A literal segment wins over a parameter (`/application/by-api-key` over `/application/{id}`).
  candidates.sort((a, b) => (b.path.match(/\{/g)?.length ?? 0) - (a.path.match(/\{/g)?.length ?? 0));
  return candidates.at(-1)?.id;
}

/**
 * Records the partitions every DynamoDB command of the app's client touches, at the SDK's
 * `initialize` step (as fixtures/call-counter.ts counts them): the input as the handler built it.
 */
export class PartitionRecorder {
  #touched: TouchedPartition[] = [];

  watch(deps: Deps): void {
    deps.db.client.middlewareStack.add(
      (next, context) => async (args) => {
        this.#touched.push(...touchedPartitions(String(context.commandName), args.input as Input));
        return next(args);
      },
      { step: 'initialize', name: 'partitionRecorder' },
    );
  }

  /** What was touched since the last call, and forget it. */
  take(): TouchedPartition[] {
    const touched = this.#touched;
    this.#touched = [];
    return touched;
  }
}
