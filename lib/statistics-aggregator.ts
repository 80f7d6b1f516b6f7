import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { aggregatorAccess } from '../shared/route-table/statistics-aggregator.ts';
import { AGGREGATOR_BATCH_SIZE, COUNTED_PARTITIONS } from '../shared/tenancy/statistics-stream.ts';
import { serviceFunctionProps } from './route-function.ts';

/** The aggregator's handler: a stream consumer, not a route. */
export const AGGREGATOR_ENTRY = 'functions/statistics/aggregate.ts';

/**
 * How long the stream gathers records before it invokes the aggregator: fewer, larger batches
 * (each a transaction or a few), still well within the statistics' documented delay
 * (shared/tenancy/statistics.ts `STATISTICS_MAX_DELAY_SECONDS`).
 */
export const BATCHING_WINDOW_SECONDS = 2;

export interface StatisticsAggregatorProps {
  readonly serviceName: string;
  /** The table, with its stream (lib/table.ts). */
  readonly table: ITable;
  readonly environment: Readonly<Record<string, string>>;
  /** Its own role (lib/access-roles.ts, `role: 'statistics'`): the statistics and record marks only. */
  readonly role: IRole;
  readonly logGroup: ILogGroup;
  readonly memoryMb?: number;
  readonly tracing?: boolean;
}

/**
 * The statistics aggregator (docs/data-model.md, Statistics): a function the table's stream invokes
 * with batches of changes, which it counts into the applications' statistics. Records of other
 * partitions never invoke it (an event filter); a batch that fails is delivered again until its
 * records leave the stream (24 hours), and the StatisticsLag alarm (lib/alarms.ts) fires long
 * before (docs/operations.md).
 */
export class StatisticsAggregator extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: StatisticsAggregatorProps) {
    super(scope, id);
    this.function = new NodejsFunction(this, 'Function', {
      ...serviceFunctionProps({
        description: `${props.serviceName} statistics aggregator (the table's stream)`,
        entry: AGGREGATOR_ENTRY,
        access: aggregatorAccess,
        auth: 'none',
        role: props.role,
        logGroup: props.logGroup,
        ...(props.memoryMb === undefined ? {} : { memoryMb: props.memoryMb }),
        ...(props.tracing === undefined ? {} : { tracing: props.tracing }),
      }),
      environment: { ...props.environment },
    });
    this.function.addEventSource(
      new DynamoEventSource(props.table, {
        // From the stream's first record: every change since the stream began is counted.
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: AGGREGATOR_BATCH_SIZE,
        maxBatchingWindow: Duration.seconds(BATCHING_WINDOW_SECONDS),
        // Retried until its records expire: a batch is never skipped, and counts once however
        // often it comes (shared/tenancy/statistics-stream.ts).
        retryAttempts: -1,
        filters: COUNTED_PARTITIONS.map((prefix) =>
          FilterCriteria.filter({ dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(prefix) } } } }),
        ),
      }),
    );
    // The event source's grant: DescribeStream, GetRecords and GetShardIterator on the table's stream,
    // and ListStreams, which IAM cannot narrow.
    const streamGrant = props.role.node.tryFindChild('DefaultPolicy');
    if (streamGrant) {
      Validations.of(streamGrant).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'dynamodb:ListStreams takes no resource in IAM (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html); the event source mapping needs it. The stream reads themselves name the table stream.',
      });
    }
  }
}
