import { describe, expect, it } from 'vitest';
import type { AlarmId } from '../../lib/alarms.ts';
import { METRIC_NAMES, RequestMetrics } from '../../shared/metrics/metrics.ts';
import { type Resource, synthDoorcode } from './synth.ts';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:doorcode-ops';

const alarmsOf = (inputs: Parameters<typeof synthDoorcode>[0] = {}) => {
  const { template } = synthDoorcode(inputs);
  const byName = new Map<string, Resource>();
  for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[]) {
    byName.set(alarm.Properties.AlarmName as string, alarm);
  }
  return { template, alarm: (id: AlarmId) => byName.get(`doorcode-${id}`)!.Properties, count: byName.size };
};

const { template, alarm, count } = alarmsOf();

type MetricQuery = {
  Id: string;
  Expression?: string;
  MetricStat?: {
    Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: unknown }[] };
  };
};
/** The metrics a metric-math alarm adds up, as `namespace metric dimension-names`. */
const summed = (properties: Record<string, unknown>) => {
  const queries = properties.Metrics as MetricQuery[];
  const [expression] = queries.filter((query) => query.Expression);
  const inputs = queries.filter((query) => query.MetricStat);
  for (const input of inputs) expect(expression?.Expression).toContain(`FILL(${input.Id}, 0)`);
  return inputs.map(({ MetricStat }) => {
    const { Namespace, MetricName, Dimensions } = MetricStat!.Metric;
    return `${Namespace} ${MetricName} ${Dimensions.map((d) => `${d.Name}=${typeof d.Value === 'string' ? d.Value : 'ref'}`).join(',')}`;
  });
};

const countAlarm = {
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  EvaluationPeriods: 1,
  DatapointsToAlarm: 1,
};

describe('alarms', () => {
  it('creates nine alarms that treat missing data as not breaching', () => {
    expect(count).toBe(9);
    for (const resource of Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[]) {
      expect(resource.Properties.TreatMissingData).toBe('notBreaching');
    }
  });

  it('alarms on 5 or more HTTP API 5xx answers in 5 minutes', () => {
    expect(alarm('Api5xx')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: expect.stringMatching(/^HttpApi/) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 5,
      ...countAlarm,
    });
  });

  it('alarms on any Lambda error or throttle of the Region', () => {
    for (const [id, metric] of [
      ['LambdaErrors', 'Errors'],
      ['LambdaThrottles', 'Throttles'],
    ] as const) {
      expect(alarm(id)).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: metric,
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ...countAlarm,
      });
      expect(alarm(id).Dimensions).toBeUndefined();
    }
  });

  it('alarms on any read or write throttle event of the table and each of its indexes', () => {
    expect(alarm('TableThrottles')).toMatchObject({ Threshold: 1, ...countAlarm });
    expect(summed(alarm('TableThrottles')).sort()).toEqual(
      [
        'AWS/DynamoDB ReadThrottleEvents TableName=ref',
        'AWS/DynamoDB ReadThrottleEvents GlobalSecondaryIndexName=gsi1,TableName=ref',
        'AWS/DynamoDB ReadThrottleEvents GlobalSecondaryIndexName=gsi2,TableName=ref',
        'AWS/DynamoDB WriteThrottleEvents TableName=ref',
        'AWS/DynamoDB WriteThrottleEvents GlobalSecondaryIndexName=gsi1,TableName=ref',
        'AWS/DynamoDB WriteThrottleEvents GlobalSecondaryIndexName=gsi2,TableName=ref',
      ].sort(),
    );
  });

  it('alarms on any DynamoDB system error of the operations the service calls (at most 10 metrics)', () => {
    expect(alarm('TableSystemErrors')).toMatchObject({ Threshold: 1, ...countAlarm });
    const metrics = summed(alarm('TableSystemErrors'));
    expect(metrics.length).toBeLessThanOrEqual(10);
    for (const operation of [
      'GetItem',
      'PutItem',
      'UpdateItem',
      'DeleteItem',
      'Query',
      'TransactWriteItems',
    ]) {
      expect(metrics).toContain(`AWS/DynamoDB SystemErrors Operation=${operation},TableName=ref`);
    }
  });

  it.each(['KmsSignErrors', 'MailCapReached'] as const)(
    'alarms on any %s, the metric the service writes (namespace and dimension of its EMF line)',
    (name) => {
      const written = new RequestMetrics();
      written.count(name);
      const line = written.flush('doorcode', 0) as {
        _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
      };
      const [directive] = line._aws.CloudWatchMetrics;
      expect(alarm(name)).toMatchObject({
        Namespace: directive?.Namespace,
        MetricName: name,
        Dimensions: directive?.Dimensions[0]?.map((dimension) => ({ Name: dimension, Value: 'doorcode' })),
        Statistic: 'Sum',
        Threshold: 1,
        ...countAlarm,
      });
    },
  );

  it('alarms when the SES bounce rate is above 5% and the complaint rate above 0.1%', () => {
    for (const [id, metric, threshold] of [
      ['SesBounceRate', 'Reputation.BounceRate', 0.05],
      ['SesComplaintRate', 'Reputation.ComplaintRate', 0.001],
    ] as const) {
      expect(alarm(id)).toMatchObject({
        Namespace: 'AWS/SES',
        MetricName: metric,
        Statistic: 'Maximum',
        Period: 3600,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanThreshold',
      });
    }
  });

  it('sends nothing without alarmTopicArn, and alarms and their recovery to the topic with it', () => {
    for (const resource of Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[]) {
      expect(resource.Properties.AlarmActions).toBeUndefined();
      expect(resource.Properties.OKActions).toBeUndefined();
    }
    const withTopic = alarmsOf({ alarmTopicArn: TOPIC });
    expect(withTopic.count).toBe(9);
    for (const resource of Object.values(
      withTopic.template.findResources('AWS::CloudWatch::Alarm'),
    ) as Resource[]) {
      expect(resource.Properties.AlarmActions).toEqual([TOPIC]);
      expect(resource.Properties.OKActions).toEqual([TOPIC]);
    }
    // An imported topic: no SNS resource and no topic policy beyond those of the stack without one
    // (the mail events' own; the alarm topic's owner allows CloudWatch to publish).
    for (const type of ['AWS::SNS::Topic', 'AWS::SNS::TopicPolicy']) {
      expect(Object.keys(withTopic.template.findResources(type))).toEqual(
        Object.keys(template.findResources(type)),
      );
    }
  });
});

describe('dashboard', () => {
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
    expect(alarmWidget?.properties.alarms).toHaveLength(9);
    const graphed = widgets
      .filter((widget) => widget.type === 'metric')
      .flatMap((widget) => widget.properties.metrics as unknown[][])
      .filter((metric) => metric[0] === 'Doorcode')
      .map((metric) => metric[1]);
    // Every metric the service writes, so a new one without a graph fails here.
    expect(new Set(graphed)).toEqual(new Set(METRIC_NAMES));
    expect(new Set(METRIC_NAMES)).toEqual(
      new Set([
        'SignInsStarted',
        'SignInsCompleted',
        'SignInsFailed',
        'CodesRefused',
        'RateLimited',
        'EmailsSent',
        'EmailsRefused',
        'KmsSignErrors',
        'MailCapReached',
      ]),
    );
  });

  it("graphs this stack's functions one by one (a SEARCH on the stack's name)", () => {
    const text = JSON.stringify(body());
    for (const metric of ['Errors', 'Throttles']) {
      expect(text).toContain(
        `SEARCH('{AWS/Lambda,FunctionName} MetricName=\\"${metric}\\" DoorcodeStack', 'Sum', 300)`,
      );
    }
  });
});
