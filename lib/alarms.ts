import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { CODE_REFUSALS, METRIC_NAMESPACE, type MetricName } from '../shared/metrics/metrics.ts';

export interface AlarmsProps {
  readonly serviceName: string;
  readonly api: IHttpApi;
  readonly table: ITable;
  /** The table's global secondary indexes: their throttles count too. */
  readonly indexNames: readonly string[];
  /** Where alarms (and their return to OK) are sent; none: they show only in the console. */
  readonly alarmTopicArn?: string;
}

const FIVE_MINUTES = Duration.minutes(5);
/** SES updates its reputation metrics a few times an hour, over a window of recent sends. */
const ONE_HOUR = Duration.hours(1);

/**
 * The DynamoDB operations the service calls (shared/store): SystemErrors is published per
 * operation, and an alarm's metric math may combine at most 10 metrics.
 */
const TABLE_OPERATIONS = [
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactWriteItems',
] as const;

/** The alarms, by construct id: docs/operations.md says what each means and what to do. */
export type AlarmId =
  | 'Api5xx'
  | 'LambdaErrors'
  | 'LambdaThrottles'
  | 'TableThrottles'
  | 'TableSystemErrors'
  | 'KmsSignErrors'
  | 'MailCapReached'
  | 'SesBounceRate'
  | 'SesComplaintRate';

/**
 * The service's alarms and its dashboard: a fixed set of resources, whatever the number of routes
 * (test/infra/resource-budget.test.ts). Alarms treat missing data as not breaching: no traffic is
 * not an outage, and the service's own metrics (shared/metrics/metrics.ts) are written only when
 * something happened.
 */
export class Alarms extends Construct {
  readonly alarms: ReadonlyMap<AlarmId, Alarm>;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const { serviceName, table } = props;
    const service = (name: MetricName, dimensions: Record<string, string> = {}) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName: name,
        dimensionsMap: { Service: serviceName, ...dimensions },
        statistic: Stats.SUM,
        period: FIVE_MINUTES,
      });
    // Lambda publishes no metric per group of functions, and an alarm's metric math takes at most 10
    // metrics (the service has one function per route): the Region's totals. In an account shared with
    // other workloads they count theirs too; the dashboard shows this stack's functions one by one.
    const lambda = (metricName: string) =>
      new Metric({ namespace: 'AWS/Lambda', metricName, statistic: Stats.SUM, period: FIVE_MINUTES });
    // `prefix` keeps the ids of two sums apart when one graph shows both.
    const sum = (label: string, prefix: string, metrics: readonly IMetric[]) =>
      new MathExpression({
        label,
        expression: metrics.map((_, index) => `FILL(${prefix}${index}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(metrics.map((metric, index) => [`${prefix}${index}`, metric])),
        period: FIVE_MINUTES,
      });
    const tableMetric = (metricName: string, dimensions: Record<string, string> = {}) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: table.tableName, ...dimensions },
        statistic: Stats.SUM,
        period: FIVE_MINUTES,
      });
    const throttleEvents = ['ReadThrottleEvents', 'WriteThrottleEvents'].flatMap((name) => [
      tableMetric(name),
      ...props.indexNames.map((index) => tableMetric(name, { GlobalSecondaryIndexName: index })),
    ]);
    const ses = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, statistic: Stats.MAXIMUM, period: ONE_HOUR });

    const definitions: Record<AlarmId, { metric: IMetric; threshold: number; description: string }> = {
      Api5xx: {
        metric: props.api.metricServerError({ statistic: Stats.SUM, period: FIVE_MINUTES }),
        threshold: 5,
        description: 'The HTTP API answered 5 or more server errors (5xx) in 5 minutes.',
      },
      LambdaErrors: {
        metric: lambda('Errors'),
        threshold: 1,
        description:
          'A Lambda function of the Region failed (crash, timeout or out of memory) in the last 5 minutes.',
      },
      LambdaThrottles: {
        metric: lambda('Throttles'),
        threshold: 1,
        description:
          'Lambda refused to run a function of the Region (concurrency limit) in the last 5 minutes.',
      },
      TableThrottles: {
        metric: sum('Throttle events', 'throttles', throttleEvents),
        threshold: 1,
        description: 'DynamoDB throttled reads or writes of the table or its indexes in the last 5 minutes.',
      },
      TableSystemErrors: {
        metric: sum(
          'System errors',
          'errors',
          TABLE_OPERATIONS.map((operation) => tableMetric('SystemErrors', { Operation: operation })),
        ),
        threshold: 1,
        description: 'DynamoDB answered the table with an internal error (HTTP 500) in the last 5 minutes.',
      },
      KmsSignErrors: {
        metric: service('KmsSignErrors'),
        threshold: 1,
        description: 'Signing a session token failed (KMS Sign or GetPublicKey) in the last 5 minutes.',
      },
      MailCapReached: {
        metric: service('MailCapReached'),
        threshold: 1,
        description:
          'The hourly cap on sign-in emails (maxCodeEmailsPerHour) was reached in the last 5 minutes: no one receives a code until the hour turns.',
      },
      SesBounceRate: {
        metric: ses('Reputation.BounceRate'),
        threshold: 0.05,
        description: 'The account-wide SES bounce rate is above 5%: SES reviews sending at this rate.',
      },
      SesComplaintRate: {
        metric: ses('Reputation.ComplaintRate'),
        threshold: 0.001,
        description: 'The account-wide SES complaint rate is above 0.1%: SES reviews sending at this rate.',
      },
    };

    const topic = props.alarmTopicArn ? Topic.fromTopicArn(this, 'Topic', props.alarmTopicArn) : undefined;
    const alarms = new Map<AlarmId, Alarm>();
    for (const [alarmId, definition] of Object.entries(definitions) as [
      AlarmId,
      (typeof definitions)[AlarmId],
    ][]) {
      const alarm = new Alarm(this, alarmId, {
        alarmName: `${serviceName}-${alarmId}`,
        alarmDescription: `${definition.description} docs/operations.md (Alarms) says what to do.`,
        metric: definition.metric,
        threshold: definition.threshold,
        // Rates alarm above the threshold; counts at or above it.
        comparisonOperator: alarmId.endsWith('Rate')
          ? ComparisonOperator.GREATER_THAN_THRESHOLD
          : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        datapointsToAlarm: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (topic) {
        alarm.addAlarmAction(new SnsAction(topic));
        alarm.addOkAction(new SnsAction(topic));
      }
      alarms.set(alarmId, alarm);
    }
    this.alarms = alarms;

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: serviceName,
      defaultInterval: Duration.hours(24),
    });
    const search = (metricName: string) =>
      new MathExpression({
        label: '',
        // This stack's functions only: their names start with the stack's name.
        expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" ${searchTerm(props)}', 'Sum', 300)`,
        usingMetrics: {},
        period: FIVE_MINUTES,
      });
    const graph = (title: string, left: IMetric[]) => new GraphWidget({ title, left, width: 8, height: 6 });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# ${serviceName}\nMetrics and alarms, and what to do: docs/operations.md.`,
        width: 24,
        height: 2,
      }),
      new AlarmStatusWidget({ title: 'Alarms', alarms: [...alarms.values()], width: 24, height: 3 }),
      graph('Sign-ins', [service('SignInsStarted'), service('SignInsCompleted'), service('SignInsFailed')]),
      graph(
        'Codes refused',
        CODE_REFUSALS.map((reason) => service('CodesRefused', { Reason: reason }).with({ label: reason })),
      ),
      graph('Rate limits, signing and the mail cap', [
        service('RateLimited'),
        service('KmsSignErrors'),
        service('MailCapReached'),
      ]),
      graph('Emails', [service('EmailsSent'), service('EmailsRefused')]),
      graph('SES reputation (account)', [ses('Reputation.BounceRate'), ses('Reputation.ComplaintRate')]),
      graph('HTTP API', [
        props.api.metricCount({ period: FIVE_MINUTES }),
        props.api.metricClientError({ statistic: Stats.SUM, period: FIVE_MINUTES }),
        props.api.metricServerError({ statistic: Stats.SUM, period: FIVE_MINUTES }),
      ]),
      graph('HTTP API latency (p99)', [
        props.api.metricLatency({ statistic: Stats.p(99), period: FIVE_MINUTES }),
      ]),
      graph('Function errors', [search('Errors')]),
      graph('Function throttles', [search('Throttles')]),
      graph('Table', [definitions.TableThrottles.metric, definitions.TableSystemErrors.metric]),
    );
  }
}

/** The stack's name, the first word of every function name CloudFormation generates for it. */
const searchTerm = (props: AlarmsProps) => props.api.stack.stackName;
