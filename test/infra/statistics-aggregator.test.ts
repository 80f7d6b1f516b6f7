import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { BATCHING_WINDOW_SECONDS } from '../../lib/statistics-aggregator.ts';
import { AGGREGATOR_BATCH_SIZE } from '../../shared/tenancy/statistics-stream.ts';
import { roleStatements } from './policies.ts';
import { synthDefault, synthDoorcode } from './synth.ts';

// The statistics aggregator (docs/data-model.md, Statistics): the table's stream, the function it
// invokes, and a role that reaches the statistics and the record marks only.

const { template, stack, logicalId, onlyResourceOf } = synthDefault();
const aggregator = stack.statisticsAggregator.function;
const tableId = onlyResourceOf('AWS::DynamoDB::Table');

describe('the statistics aggregator', () => {
  it('reads a stream of both images of the table', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('is invoked from the first record on, in batches, retried until the records expire, for users and organizations only', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(aggregator) },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: AGGREGATOR_BATCH_SIZE,
      MaximumBatchingWindowInSeconds: BATCHING_WINDOW_SECONDS,
      MaximumRetryAttempts: -1,
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ dynamodb: { Keys: { pk: { S: [{ prefix: 'USER#' }] } } } }) },
          { Pattern: JSON.stringify({ dynamodb: { Keys: { pk: { S: [{ prefix: 'ORG#' }] } } } }) },
        ],
      },
    });
  });

  it('writes only the statistics and the marks of counted records, and reads the stream', () => {
    const roleId = logicalId(aggregator.role!);
    const statements = roleStatements(template, roleId);
    const onTable = statements.filter((s) =>
      s.actions.some((action) => action.startsWith('dynamodb:PutItem')),
    );
    expect(onTable).toHaveLength(1);
    expect(onTable[0]?.condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['STATS#*', 'STREAM#*'] },
    });
    const streamActions = statements
      .filter((s) => s.actions.includes('dynamodb:GetRecords'))
      .flatMap((s) => s.resources);
    expect(streamActions).toEqual([{ 'Fn::GetAtt': [tableId, 'StreamArn'] }]);
    // No route's role is the aggregator's.
    for (const fn of stack.routeFunctions.values()) expect(fn.role).not.toBe(aggregator.role);
  });

  it('gets the environment every function gets, and nothing to sign, mail or seal with', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('statistics aggregator'),
      Environment: { Variables: Match.objectLike({ TABLE_NAME: { Ref: tableId } }) },
    });
    const roleId = logicalId(aggregator.role!);
    const actions = roleStatements(template, roleId).flatMap((s) => s.actions);
    expect(actions.filter((action) => /^(kms|ses|secretsmanager):/.test(action))).toEqual([]);
  });

  it('reads the stream of an existing table from its ARN', () => {
    const arn = 'arn:aws:dynamodb:us-east-1:123456789012:table/restored/stream/2026-11-27T00:00:00.000';
    const restored = synthDoorcode({ tableName: 'restored', tableStreamArn: arn });
    restored.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { EventSourceArn: arn });
  });
});
