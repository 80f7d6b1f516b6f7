import { PRICES, type PricedItem } from './prices.ts';

interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
}

/**
 * The resource types that cost nothing while no one uses the service, each with why: they bill per
 * request, per byte or per invocation, or not at all. A type in neither this list nor the priced
 * ones (below) makes `idleCostOf` throw, so a new kind of resource is priced before it ships.
 */
export const FREE_WHILE_IDLE: Readonly<Record<string, string>> = {
  'AWS::ApiGatewayV2::Api': 'HTTP API: billed per request',
  'AWS::ApiGatewayV2::Stage': 'part of the HTTP API',
  'AWS::ApiGatewayV2::Integration': 'part of the HTTP API',
  'AWS::ApiGatewayV2::Route': 'part of the HTTP API',
  'AWS::ApiGatewayV2::DomainName': 'part of the HTTP API',
  'AWS::ApiGatewayV2::ApiMapping': 'part of the HTTP API',
  'AWS::CDK::Metadata': 'CDK version reporting, not an AWS resource',
  'AWS::DynamoDB::Table':
    'on-demand: billed per request and per GB stored (point-in-time recovery per GB too); an idle table holds next to nothing',
  'AWS::IAM::Policy': 'free',
  'AWS::IAM::Role': 'free',
  'AWS::KMS::Alias': 'free',
  'AWS::Lambda::EventSourceMapping': 'free: the function it invokes is billed per invocation',
  'AWS::Lambda::Function': 'billed per request and GB-second (no provisioned concurrency)',
  'AWS::Lambda::Permission': 'free',
  'AWS::Logs::LogGroup': 'billed per GB ingested and stored',
  'AWS::Logs::MetricFilter': 'free: the metric it writes is billed only in the hours it receives data',
  'AWS::SES::ConfigurationSet': 'SES bills per email sent',
  'AWS::SES::ConfigurationSetEventDestination': 'SES bills per email sent',
  'AWS::SES::EmailIdentity': 'SES bills per email sent',
  'AWS::SNS::Subscription': 'billed per delivery (email: the first 1,000 a month free)',
  'AWS::SNS::Topic': 'standard topic: billed per publish and delivery',
  'AWS::SNS::TopicPolicy': 'free',
};

/** What a template bills by the month while idle: how many of each priced item, and the sum. */
export interface IdleCost {
  /** How many of each item the template holds (`kmsRotation`: 0, as in a key's first year). */
  readonly counts: Readonly<Record<PricedItem, number>>;
  /** The first month's cost, in cents. */
  readonly cents: number;
  /** KMS keys with automatic rotation: each adds `PRICES.kmsRotation` after its first and second rotation. */
  readonly rotatingKeys: number;
}

interface MetricQuery {
  readonly MetricStat?: { readonly Period?: number };
  readonly Period?: number;
}

/** The metrics a standard-resolution alarm is billed for: each MetricStat of its math, or its one metric. */
function alarmMetrics(logicalId: string, properties: Record<string, unknown>): number {
  const queries = properties.Metrics as MetricQuery[] | undefined;
  const periods = queries
    ? queries.flatMap((query) => [query.MetricStat?.Period, query.Period])
    : [properties.Period as number | undefined];
  if (periods.some((period) => period !== undefined && period < 60)) {
    throw new Error(`${logicalId}: a high-resolution alarm, which lib/prices.ts does not price`);
  }
  return queries ? queries.filter((query) => query.MetricStat).length : 1;
}

/** The idle cost of a synthesized template (`Template.toJSON()`), at the prices of lib/prices.ts. */
export function idleCostOf(template: { readonly Resources?: Record<string, TemplateResource> }): IdleCost {
  const counts: Record<PricedItem, number> = {
    kmsKey: 0,
    kmsRotation: 0,
    secret: 0,
    alarmMetric: 0,
    dashboard: 0,
  };
  let rotatingKeys = 0;
  for (const [logicalId, { Type, Properties = {} }] of Object.entries(template.Resources ?? {})) {
    switch (Type) {
      case 'AWS::KMS::Key':
        counts.kmsKey += 1;
        if (Properties.EnableKeyRotation === true) rotatingKeys += 1;
        break;
      case 'AWS::SecretsManager::Secret':
        counts.secret += 1;
        break;
      case 'AWS::CloudWatch::Alarm':
        counts.alarmMetric += alarmMetrics(logicalId, Properties);
        break;
      case 'AWS::CloudWatch::Dashboard':
        counts.dashboard += 1;
        break;
      case 'AWS::DynamoDB::Table':
        if (Properties.BillingMode !== 'PAY_PER_REQUEST') {
          throw new Error(`${logicalId}: a provisioned table, which lib/prices.ts does not price`);
        }
        break;
      case 'AWS::Lambda::Function':
        break;
      default:
        if (!(Type in FREE_WHILE_IDLE)) {
          throw new Error(
            `${logicalId}: ${Type} is neither priced in lib/prices.ts nor known to cost nothing idle (lib/idle-cost.ts)`,
          );
        }
    }
  }
  const cents = (Object.entries(counts) as [PricedItem, number][]).reduce(
    (sum, [item, count]) => sum + PRICES[item].cents * count,
    0,
  );
  return { counts, cents, rotatingKeys };
}
