import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Code, Function as LambdaFunction, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import {
  ALARMS,
  type AlarmId,
  Alarms,
  FAILED_INTEGRATION,
  FAILED_INVOCATION,
  lambdaFailuresMetric,
} from '../../lib/alarms.ts';
import { METRIC_NAMES, RequestMetrics } from '../../shared/metrics/metrics.ts';
import { routeList } from '../../shared/routes.ts';
import { type Resource, synthDoorcode } from './synth.ts';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:doorcode-ops';

const alarmsOf = (inputs: Parameters<typeof synthDoorcode>[0] = {}) => {
  const synth = synthDoorcode(inputs);
  const byName = new Map<string, Resource & { Properties: Record<string, unknown> }>();
  for (const alarm of Object.values(synth.template.findResources('AWS::CloudWatch::Alarm')) as Resource[]) {
    byName.set(alarm.Properties.AlarmName as string, alarm);
  }
  return {
    ...synth,
    alarm: (id: AlarmId) => byName.get(`doorcode-${id}`)!.Properties,
    names: [...byName.keys()].sort(),
    all: [...byName.values()],
  };
};

const defaults = alarmsOf();

const countAlarm = {
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  EvaluationPeriods: 1,
  DatapointsToAlarm: 1,
};

describe('alarms', () => {
  it('creates the alarms that page someone, each on one metric, treating missing data as not breaching', () => {
    expect(defaults.names).toEqual(
      ['Api5xx', 'LambdaFailures', 'EmailsRefused', 'SesBounceRate', 'SesComplaintRate', 'StatisticsLag']
        .map((id) => `doorcode-${id}`)
        .sort(),
    );
    for (const { Properties } of defaults.all) {
      expect(Properties.TreatMissingData).toBe('notBreaching');
      expect(Properties.Metrics).toBeUndefined();
    }
  });

  it('alarms on 5 or more HTTP API 5xx answers in 5 minutes', () => {
    expect(defaults.alarm('Api5xx')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: expect.stringMatching(/^HttpApi/) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 5,
      ...countAlarm,
    });
  });

  it('alarms on EmailsRefused, the metric start writes when SES refuses (namespace and dimension of its EMF line)', () => {
    const written = new RequestMetrics();
    written.count('EmailsRefused');
    const line = written.flush('doorcode', 0) as {
      _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
    };
    const [directive] = line._aws.CloudWatchMetrics;
    expect(METRIC_NAMES).toContain('EmailsRefused');
    expect(defaults.alarm('EmailsRefused')).toMatchObject({
      Namespace: directive?.Namespace,
      MetricName: 'EmailsRefused',
      Dimensions: directive?.Dimensions[0]?.map((dimension) => ({ Name: dimension, Value: 'doorcode' })),
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ...countAlarm,
    });
  });

  it('alarms at half the SES review rates: bounces above 2.5%, complaints above 0.05%', () => {
    for (const [id, metric, threshold] of [
      ['SesBounceRate', 'Reputation.BounceRate', 0.025],
      ['SesComplaintRate', 'Reputation.ComplaintRate', 0.0005],
    ] as const) {
      expect(defaults.alarm(id)).toMatchObject({
        Namespace: 'AWS/SES',
        MetricName: metric,
        Statistic: 'Maximum',
        Period: 3600,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
    // SES reviews an account at 5% bounces and 0.1% complaints.
    expect(ALARMS.SesBounceRate.threshold * 2).toBe(0.05);
    expect(ALARMS.SesComplaintRate.threshold * 2).toBe(0.001);
  });
});

describe("LambdaFailures: the Lambda alarm counts this stack's functions only", () => {
  const failures = lambdaFailuresMetric('doorcode');
  const filters = Object.values(defaults.template.findResources('AWS::Logs::MetricFilter')) as Resource[];
  const logGroupOf = (id: string) =>
    defaults.logicalId(defaults.routeFunction(id as never).logGroup as LogGroup);

  it("reads one metric fed by metric filters, not the Region's AWS/Lambda totals", () => {
    expect(defaults.alarm('LambdaFailures')).toMatchObject({
      Namespace: failures.namespace,
      MetricName: failures.metricName,
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ...countAlarm,
    });
    expect(defaults.alarm('LambdaFailures').Dimensions).toBeUndefined();
    const lambdaAlarms = defaults.all.filter((alarm) => JSON.stringify(alarm).includes('AWS/Lambda'));
    // Only the aggregator's IteratorAge reads AWS/Lambda, and only for that one function.
    expect(lambdaAlarms.map((alarm) => alarm.Properties.MetricName)).toEqual(['IteratorAge']);
    expect(JSON.stringify(defaults.alarm('StatisticsLag').Dimensions)).toContain(
      defaults.stack.getLogicalId(
        defaults.stack.statisticsAggregator.function.node.defaultChild as CfnElement,
      ),
    );
    for (const filter of filters) {
      expect(filter.Properties.MetricTransformations).toEqual([
        { MetricNamespace: failures.namespace, MetricName: failures.metricName, MetricValue: '1' },
      ]);
    }
  });

  it('counts failed invocations in the log group of every function, and only there', () => {
    const groups = new Set(routeList.map((route) => logGroupOf(route.id)));
    expect(groups.size).toBe(1);
    const invocationFilters = filters.filter(
      (filter) => filter.Properties.FilterPattern === FAILED_INVOCATION,
    );
    expect(invocationFilters.map((filter) => filter.Properties.LogGroupName)).toEqual(
      [...groups].map((group) => ({ Ref: group })),
    );
    // The functions write the JSON format, whose platform.report the pattern reads, at system level INFO.
    for (const route of routeList) {
      const fn = defaults.resources[defaults.logicalId(defaults.routeFunction(route.id).function)]!;
      expect(fn.Properties.LoggingConfig).toMatchObject({
        LogFormat: 'JSON',
        SystemLogLevel: 'INFO',
        LogGroup: { Ref: [...groups][0] },
      });
    }
  });

  it("counts the API requests whose function gave no answer (throttles included) in the API's access log", () => {
    const stage = Object.values(defaults.template.findResources('AWS::ApiGatewayV2::Stage'))[0] as Resource;
    const destination = (stage.Properties.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': [string] } })
      .DestinationArn['Fn::GetAtt'][0];
    const integrationFilters = filters.filter(
      (filter) => filter.Properties.FilterPattern === FAILED_INTEGRATION,
    );
    expect(integrationFilters.map((filter) => filter.Properties.LogGroupName)).toEqual([
      { Ref: destination },
    ]);
    // The access log names the field, unset as `-` (lib/http-api.ts).
    expect(JSON.stringify(stage.Properties.AccessLogSettings)).toContain(
      '\\"integrationError\\":\\"$context.integrationErrorMessage\\"',
    );
    expect(filters).toHaveLength(2);
  });

  it('covers every function it is given, each log group once, and refuses one without a JSON log group', () => {
    const stack = new Stack(new App(), 'Test');
    const api = new HttpApi(stack, 'Api');
    const logs = [new LogGroup(stack, 'A'), new LogGroup(stack, 'B')];
    const fn = (id: string, logGroup?: LogGroup) =>
      new LambdaFunction(stack, id, {
        runtime: Runtime.NODEJS_24_X,
        handler: 'index.handler',
        code: Code.fromInline('exports.handler = async () => {}'),
        ...(logGroup ? { logGroup, loggingFormat: LoggingFormat.JSON } : {}),
      });
    const functions = [fn('F1', logs[0]), fn('F2', logs[0]), fn('F3', logs[1])];
    new Alarms(stack, 'Alarms', { serviceName: 'doorcode', api, functions, alarmEmail: 'ops@example.com' });
    const template = Template.fromStack(stack);
    const patterns = Object.values(template.findResources('AWS::Logs::MetricFilter')).map((filter) => [
      filter.Properties.FilterPattern,
      filter.Properties.LogGroupName,
    ]);
    expect(patterns).toEqual([
      [FAILED_INVOCATION, { Ref: stack.getLogicalId(logs[0]!.node.defaultChild as never) }],
      [FAILED_INVOCATION, { Ref: stack.getLogicalId(logs[1]!.node.defaultChild as never) }],
    ]);
    expect(
      () => new Alarms(stack, 'Textual', { serviceName: 'doorcode', api, functions: [fn('F4')] }),
    ).toThrow(/Test\/F4: LambdaFailures reads the JSON log format/);
  });
});

describe('StatisticsLag: the stream aggregator falling behind', () => {
  const stack = new Stack(new App(), 'Test');
  const api = new HttpApi(stack, 'Api');
  const logGroup = new LogGroup(stack, 'Logs');
  const aggregator = new LambdaFunction(stack, 'Aggregator', {
    runtime: Runtime.NODEJS_24_X,
    handler: 'index.handler',
    code: Code.fromInline('exports.handler = async () => {}'),
    logGroup,
    loggingFormat: LoggingFormat.JSON,
  });
  const alarms = new Alarms(stack, 'Alarms', {
    serviceName: 'doorcode',
    api,
    functions: [aggregator],
    streamAggregator: aggregator,
    alarmEmail: 'ops@example.com',
  });
  const template = Template.fromStack(stack);

  it("alarms when the aggregator's IteratorAge (Maximum over 5 minutes) passes 60,000 ms", () => {
    expect([...alarms.alarms.keys()]).toContain('StatisticsLag');
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'doorcode-StatisticsLag',
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [
        { Name: 'FunctionName', Value: { Ref: stack.getLogicalId(aggregator.node.defaultChild as never) } },
      ],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 60_000,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('is absent without an aggregator', () => {
    const bare = new Stack(new App(), 'Bare');
    const withoutAggregator = new Alarms(bare, 'Alarms', {
      serviceName: 'doorcode',
      api: new HttpApi(bare, 'Api'),
      functions: [],
      alarmEmail: 'ops@example.com',
    });
    expect([...withoutAggregator.alarms.keys()]).not.toContain('StatisticsLag');
    expect(defaults.names).toContain('doorcode-StatisticsLag');
  });
});

describe('where the alarms go', () => {
  it('nowhere without alarmEmail or alarmTopicArn, and synth warns naming both keys', () => {
    for (const { Properties } of defaults.all) {
      expect(Properties.AlarmActions).toBeUndefined();
      expect(Properties.OKActions).toBeUndefined();
    }
    const warnings = Annotations.fromStack(defaults.stack).findWarning(
      '/DoorcodeStack/Alarms',
      Match.stringLikeRegexp('alarmEmail'),
    );
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.entry.data)).toMatch(/-c alarmEmail=<address>.*-c alarmTopicArn=/);
  });

  it('with alarmEmail: a topic of the stack with that email subscription, which every alarm and its recovery notify', () => {
    const withEmail = alarmsOf({ alarmEmail: 'ops@example.com' });
    const topicId = Object.keys(
      withEmail.template.findResources('AWS::SNS::Topic', { Properties: { DisplayName: 'doorcode alarms' } }),
    )[0]!;
    withEmail.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: topicId },
    });
    for (const { Properties } of withEmail.all) {
      expect(Properties.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(Properties.OKActions).toEqual([{ Ref: topicId }]);
    }
    // Only CloudWatch alarms of this account may publish, over TLS (enforceSSL replaces the default policy).
    const [policy] = Object.values(
      withEmail.template.findResources('AWS::SNS::TopicPolicy', {
        Properties: { Topics: [{ Ref: topicId }] },
      }),
    ) as Resource[];
    const statements = (policy!.Properties.PolicyDocument as { Statement: Record<string, unknown>[] })
      .Statement;
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: 'sns:Publish',
        Condition: expect.objectContaining({
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        }),
      }),
    );
    expect(statements.some((s) => s.Effect === 'Deny')).toBe(true);
    expect(withEmail.template.toJSON().Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
    expect(Annotations.fromStack(withEmail.stack).findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('with alarmTopicArn: that topic, and no topic of the stack', () => {
    const withTopic = alarmsOf({ alarmTopicArn: TOPIC });
    for (const { Properties } of withTopic.all) {
      expect(Properties.AlarmActions).toEqual([TOPIC]);
      expect(Properties.OKActions).toEqual([TOPIC]);
    }
    for (const type of ['AWS::SNS::Topic', 'AWS::SNS::TopicPolicy', 'AWS::SNS::Subscription']) {
      expect(Object.keys(withTopic.template.findResources(type))).toEqual(
        Object.keys(defaults.template.findResources(type)),
      );
    }
    expect(Annotations.fromStack(withTopic.stack).findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('with both: each alarm notifies both', () => {
    const both = alarmsOf({ alarmTopicArn: TOPIC, alarmEmail: 'ops@example.com' });
    for (const { Properties } of both.all) {
      expect(Properties.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^AlarmsTopic/) }, TOPIC]);
    }
  });
});

describe('dashboard (-c dashboard=true)', () => {
  it('is off by default', () => {
    defaults.template.resourceCountIs('AWS::CloudWatch::Dashboard', 0);
  });

  const { template } = alarmsOf({ dashboard: true });
  /** The dashboard body as JSON, each CloudFormation reference replaced by `REF`. */
  const body = () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    const parts = (dashboard!.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    return JSON.parse(parts.map((part) => (typeof part === 'string' ? part : 'REF')).join('')) as {
      widgets: { type: string; properties: Record<string, any> }[];
    };
  };

  it('is one dashboard named after the service, with every alarm and every service metric', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'doorcode' });
    const { widgets } = body();
    const alarmWidget = widgets.find((widget) => widget.type === 'alarm');
    expect(alarmWidget?.properties.alarms).toHaveLength(defaults.names.length);
    const graphed = widgets
      .filter((widget) => widget.type === 'metric')
      .flatMap((widget) => widget.properties.metrics as unknown[][])
      .filter((metric) => metric[0] === 'Doorcode')
      .map((metric) => metric[1]);
    // Every metric the service writes, so a new one without a graph fails here.
    expect(new Set(graphed)).toEqual(new Set(METRIC_NAMES));
  });

  it("graphs this stack's functions one by one (a SEARCH on the stack's name) and the table", () => {
    const text = JSON.stringify(body());
    for (const metric of ['Errors', 'Throttles']) {
      expect(text).toContain(
        `SEARCH('{AWS/Lambda,FunctionName} MetricName=\\"${metric}\\" DoorcodeStack', 'Sum', 300)`,
      );
    }
    expect(text).toContain('ReadThrottleEvents');
    expect(text).toContain('SystemErrors');
  });
});
