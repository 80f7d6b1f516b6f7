import { Annotations, ArnFormat, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
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
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, LogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { CODE_REFUSALS, METRIC_NAMESPACE, type MetricName } from '../shared/metrics/metrics.ts';
import { STATISTICS_MAX_DELAY_SECONDS } from '../shared/tenancy/statistics.ts';

/**
 * The alarms, by construct id, and what each watches: the one place their thresholds are written.
 * docs/operations.md renders this table (`npm run docs`, region `alarms`) and says what to do for each.
 * Each one is a person's job: a symptom someone acts on, not a diagnosis (the opt-in dashboard and the
 * logs are for that), since every alarm metric is billed by the month (lib/prices.ts).
 */
export const ALARMS = {
  Api5xx: {
    metric: '`AWS/ApiGateway` `5xx` of the HTTP API',
    statistic: 'Sum',
    periodSeconds: 300,
    comparison: '>=',
    threshold: 5,
    when: 'the HTTP API answered 5 or more server errors in 5 minutes',
  },
  LambdaFailures: {
    metric:
      "`Doorcode/<serviceName>` `LambdaFailures`, counted from the logs of this stack's functions and of its API",
    statistic: 'Sum',
    periodSeconds: 300,
    comparison: '>=',
    threshold: 1,
    when: "a function of this stack crashed, timed out or ran out of memory, or the API could not get an answer from a route's function (a throttle included), in 5 minutes",
  },
  EmailsRefused: {
    metric: '`Doorcode` `EmailsRefused` (dimension `Service`)',
    statistic: 'Sum',
    periodSeconds: 300,
    comparison: '>=',
    threshold: 1,
    when: 'SES refused a sign-in email, or could not be reached, in 5 minutes',
  },
  SesBounceRate: {
    metric: '`AWS/SES` `Reputation.BounceRate` (the account)',
    statistic: 'Maximum',
    periodSeconds: 3600,
    comparison: '>',
    // Half the rate at which SES puts an account under review (5%): time to act before it does.
    threshold: 0.025,
    when: "the account's bounce rate is above half the 5% at which SES reviews an account",
  },
  SesComplaintRate: {
    metric: '`AWS/SES` `Reputation.ComplaintRate` (the account)',
    statistic: 'Maximum',
    periodSeconds: 3600,
    comparison: '>',
    // Half the rate at which SES puts an account under review (0.1%).
    threshold: 0.0005,
    when: "the account's complaint rate is above half the 0.1% at which SES reviews an account",
  },
  StatisticsLag: {
    metric: '`AWS/Lambda` `IteratorAge` of the statistics aggregator',
    statistic: 'Maximum',
    periodSeconds: 300,
    comparison: '>',
    // The bound the statistics answers state (`freshness.maxDelaySeconds`), in milliseconds.
    threshold: STATISTICS_MAX_DELAY_SECONDS * 1000,
    when: `the last change of a batch handed to the statistics aggregator was more than ${STATISTICS_MAX_DELAY_SECONDS} s old (milliseconds): the statistics are further behind than their answers say`,
  },
} as const satisfies Record<string, AlarmSpec>;

export interface AlarmSpec {
  /** What it reads, for docs/operations.md. */
  readonly metric: string;
  readonly statistic: 'Sum' | 'Maximum';
  readonly periodSeconds: number;
  readonly comparison: '>=' | '>';
  readonly threshold: number;
  /** When it fires, for docs/operations.md and the alarm's description. */
  readonly when: string;
}

export type AlarmId = keyof typeof ALARMS;

/** The log-derived metric of LambdaFailures: a metric filter can set no fixed dimension, so the namespace names the service. */
export const lambdaFailuresMetric = (serviceName: string) =>
  ({ namespace: `${METRIC_NAMESPACE}/${serviceName}`, metricName: 'LambdaFailures' }) as const;

/**
 * A Lambda invocation that failed: the report Lambda writes after each invocation, in the JSON log
 * format, says `status` `success`, or `error`, `failure` or `timeout` with an `errorType`
 * (https://docs.aws.amazon.com/lambda/latest/dg/telemetry-schema-reference.html#platform-report).
 */
export const FAILED_INVOCATION = '{ $.type = "platform.report" && $.record.status != "success" }';
/**
 * An API request whose function gave no answer: the access log's `integrationError`
 * (`$context.integrationErrorMessage`, lib/http-api.ts) is `-` unless the integration failed, a
 * throttled invocation included (API Gateway then answers 500).
 */
export const FAILED_INTEGRATION = '{ $.integrationError != "-" }';

/**
 * The DynamoDB operations the service calls (shared/store): SystemErrors is published per
 * operation; the dashboard adds them up.
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

export interface AlarmsProps {
  readonly serviceName: string;
  readonly api: IHttpApi;
  /**
   * Every function of the stack (the route functions and any other): LambdaFailures counts the
   * failed invocations in their log groups, which must hold the JSON log format.
   */
  readonly functions: readonly IFunction[];
  /** The HTTP API's access log: a throttled route function leaves no line of its own, only this one. */
  readonly accessLogs?: ILogGroup;
  /** The DynamoDB Streams statistics aggregator, if the stack has one: StatisticsLag watches its IteratorAge. */
  readonly streamAggregator?: IFunction;
  /** An existing standard SNS topic that receives every alarm and its return to OK. */
  readonly alarmTopicArn?: string;
  /** An address the stack subscribes, by email, to a topic of its own that receives every alarm. */
  readonly alarmEmail?: string;
  /** The CloudWatch dashboard (`dashboard=true`, $3.00 a month): graphs of every metric, by function and by table. */
  readonly dashboard?: { readonly table: ITable; readonly indexNames: readonly string[] };
}

/**
 * The service's alarms, where they go, and the opt-in dashboard: a fixed set of resources, whatever
 * the number of routes (test/infra/resource-budget.test.ts). Alarms treat missing data as not
 * breaching: no traffic is not an outage, and the service's own metrics (shared/metrics/metrics.ts)
 * are written only when something happened.
 */
export class Alarms extends Construct {
  readonly alarms: ReadonlyMap<AlarmId, Alarm>;
  /** Where every alarm goes: the stack's own email topic and the given topic, each if set. */
  readonly topics: readonly ITopic[];
  /** The stack's own topic, with `alarmEmail`. */
  readonly emailTopic?: Topic;
  readonly dashboard?: Dashboard;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    const { serviceName } = props;
    const spec = (alarmId: AlarmId) => ALARMS[alarmId] as AlarmSpec;
    const period = (alarmId: AlarmId) => Duration.seconds(spec(alarmId).periodSeconds);
    const service = (name: MetricName, dimensions: Record<string, string> = {}) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName: name,
        dimensionsMap: { Service: serviceName, ...dimensions },
        statistic: Stats.SUM,
        period: Duration.minutes(5),
      });
    const ses = (metricName: string, alarmId: AlarmId) =>
      new Metric({ namespace: 'AWS/SES', metricName, statistic: Stats.MAXIMUM, period: period(alarmId) });

    // Lambda publishes Errors and Throttles per function or for the whole Region, and an alarm pays
    // for each metric it reads (lib/prices.ts): one metric filter per log group of this stack's
    // functions, and one on the API's access log, feed one metric instead.
    const failures = lambdaFailuresMetric(serviceName);
    const logGroups = functionLogGroups(this, props.functions);
    const filters = [
      ...logGroups.map((logGroup, index) => ({
        logGroup,
        pattern: FAILED_INVOCATION,
        id: `FailedInvocations${index || ''}`,
      })),
      ...(props.accessLogs
        ? [{ logGroup: props.accessLogs, pattern: FAILED_INTEGRATION, id: 'FailedIntegrations' }]
        : []),
    ];
    for (const { logGroup, pattern, id: filterId } of filters) {
      new MetricFilter(this, filterId, {
        logGroup,
        filterPattern: FilterPattern.literal(pattern),
        metricNamespace: failures.namespace,
        metricName: failures.metricName,
        metricValue: '1',
      });
    }

    const metrics: Partial<Record<AlarmId, IMetric>> = {
      Api5xx: props.api.metricServerError({ statistic: Stats.SUM, period: period('Api5xx') }),
      LambdaFailures: new Metric({ ...failures, statistic: Stats.SUM, period: period('LambdaFailures') }),
      EmailsRefused: service('EmailsRefused'),
      SesBounceRate: ses('Reputation.BounceRate', 'SesBounceRate'),
      SesComplaintRate: ses('Reputation.ComplaintRate', 'SesComplaintRate'),
      ...(props.streamAggregator
        ? {
            StatisticsLag: props.streamAggregator.metric('IteratorAge', {
              statistic: Stats.MAXIMUM,
              period: period('StatisticsLag'),
            }),
          }
        : {}),
    };

    const topics: ITopic[] = [];
    if (props.alarmEmail) {
      this.emailTopic = new Topic(this, 'Topic', {
        displayName: `${serviceName} alarms`,
        enforceSSL: true,
      });
      this.emailTopic.addSubscription(new EmailSubscription(props.alarmEmail));
      // The topic policy enforceSSL writes replaces SNS's default one, which let the account publish:
      // CloudWatch alarms of this account are let in again by name.
      this.emailTopic.addToResourcePolicy(
        new PolicyStatement({
          sid: 'AlarmsOfThisAccount',
          actions: ['sns:Publish'],
          principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
          resources: [this.emailTopic.topicArn],
          conditions: {
            StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
            ArnLike: {
              'aws:SourceArn': Stack.of(this).formatArn({
                service: 'cloudwatch',
                resource: 'alarm',
                resourceName: '*',
                arnFormat: ArnFormat.COLON_RESOURCE_NAME,
              }),
            },
          },
        }),
      );
      Validations.of(this.emailTopic).acknowledge({
        id: 'AwsSolutions-SNS2',
        reason:
          'Alarm notifications carry alarm names, thresholds and states, no personal data; a topic CloudWatch publishes to can be encrypted only with a customer managed key ($1.00 a month, docs/operations.md "What it costs idle").',
      });
      topics.push(this.emailTopic);
    }
    if (props.alarmTopicArn) topics.push(Topic.fromTopicArn(this, 'ExistingTopic', props.alarmTopicArn));
    this.topics = topics;
    if (topics.length === 0) {
      Annotations.of(this).addWarningV2(
        'doorcode:no-alarm-destination',
        'No alarm reaches anyone: set -c alarmEmail=<address> (or -c alarmTopicArn=<SNS topic ARN>) so the alarms notify a person (docs/operations.md, "Alarms").',
      );
    }

    const alarms = new Map<AlarmId, Alarm>();
    for (const [alarmId, metric] of Object.entries(metrics) as [AlarmId, IMetric][]) {
      const { threshold, comparison, when } = spec(alarmId);
      const alarm = new Alarm(this, alarmId, {
        alarmName: `${serviceName}-${alarmId}`,
        alarmDescription: `Fires when ${when}. docs/operations.md (Alarms) says what to do.`,
        metric,
        threshold,
        comparisonOperator:
          comparison === '>'
            ? ComparisonOperator.GREATER_THAN_THRESHOLD
            : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        datapointsToAlarm: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      for (const topic of topics) {
        alarm.addAlarmAction(new SnsAction(topic));
        alarm.addOkAction(new SnsAction(topic));
      }
      alarms.set(alarmId, alarm);
    }
    this.alarms = alarms;

    if (props.dashboard)
      this.dashboard = this.#dashboard(props, props.dashboard, service, metrics, [...alarms.values()]);
  }

  #dashboard(
    props: AlarmsProps,
    data: NonNullable<AlarmsProps['dashboard']>,
    service: (name: MetricName, dimensions?: Record<string, string>) => Metric,
    metrics: Partial<Record<AlarmId, IMetric>>,
    alarms: Alarm[],
  ): Dashboard {
    const fiveMinutes = Duration.minutes(5);
    // `prefix` keeps the ids of two sums apart when one graph shows both.
    const sum = (label: string, prefix: string, summed: readonly IMetric[]) =>
      new MathExpression({
        label,
        expression: summed.map((_, index) => `FILL(${prefix}${index}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(summed.map((metric, index) => [`${prefix}${index}`, metric])),
        period: fiveMinutes,
      });
    const tableMetric = (metricName: string, dimensions: Record<string, string> = {}) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: data.table.tableName, ...dimensions },
        statistic: Stats.SUM,
        period: fiveMinutes,
      });
    const throttleEvents = ['ReadThrottleEvents', 'WriteThrottleEvents'].flatMap((name) => [
      tableMetric(name),
      ...data.indexNames.map((index) => tableMetric(name, { GlobalSecondaryIndexName: index })),
    ]);
    const search = (metricName: string) =>
      new MathExpression({
        label: '',
        // This stack's functions only: their names start with the stack's name.
        expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" ${props.api.stack.stackName}', 'Sum', 300)`,
        usingMetrics: {},
        period: fiveMinutes,
      });
    const graph = (title: string, left: IMetric[]) => new GraphWidget({ title, left, width: 8, height: 6 });
    const dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.serviceName,
      defaultInterval: Duration.hours(24),
    });
    dashboard.addWidgets(
      new TextWidget({
        markdown: `# ${props.serviceName}\nMetrics and alarms, and what to do: docs/operations.md.`,
        width: 24,
        height: 2,
      }),
      new AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 3 }),
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
      graph('SES reputation (account)', [
        metrics.SesBounceRate as IMetric,
        metrics.SesComplaintRate as IMetric,
      ]),
      graph('HTTP API', [
        props.api.metricCount({ period: fiveMinutes }),
        props.api.metricClientError({ statistic: Stats.SUM, period: fiveMinutes }),
        props.api.metricServerError({ statistic: Stats.SUM, period: fiveMinutes }),
      ]),
      graph('HTTP API latency (p99)', [
        props.api.metricLatency({ statistic: Stats.p(99), period: fiveMinutes }),
      ]),
      graph('Function failures', [metrics.LambdaFailures as IMetric]),
      graph('Function errors', [search('Errors')]),
      graph('Function throttles', [search('Throttles')]),
      graph('Table', [
        sum('Throttle events', 'throttles', throttleEvents),
        sum(
          'System errors',
          'errors',
          TABLE_OPERATIONS.map((operation) => tableMetric('SystemErrors', { Operation: operation })),
        ),
      ]),
    );
    return dashboard;
  }
}

/**
 * The log groups `functions` write to, each once: the custom log group of each function's
 * LoggingConfig, which must use the JSON format (the metric filters read JSON fields). A function
 * without one would log to `/aws/lambda/<name>`, which Lambda creates only at its first invocation:
 * too late for a metric filter made at deploy time.
 */
function functionLogGroups(scope: Construct, functions: readonly IFunction[]): ILogGroup[] {
  const stack = Stack.of(scope);
  const byName = new Map<string, ILogGroup>();
  for (const fn of functions) {
    const raw = (fn.node.defaultChild as CfnFunction | undefined)?.loggingConfig;
    const config = raw && !Token.isUnresolved(raw) ? (raw as CfnFunction.LoggingConfigProperty) : undefined;
    if (!config?.logGroup || stack.resolve(config.logFormat) !== 'JSON') {
      throw new Error(
        `${fn.node.path}: LambdaFailures reads the JSON log format from a log group of the stack; give the function a logGroup and loggingFormat JSON (lib/route-function.ts does)`,
      );
    }
    const key = JSON.stringify(stack.resolve(config.logGroup));
    if (!byName.has(key)) {
      byName.set(key, LogGroup.fromLogGroupName(scope, `FunctionLogs${byName.size || ''}`, config.logGroup));
    }
  }
  return [...byName.values()];
}
