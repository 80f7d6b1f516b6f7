import { describe, expect, it } from 'vitest';
import { FREE_WHILE_IDLE, idleCostOf } from '../../lib/idle-cost.ts';
import { IDLE_BUDGET_CENTS, PRICES } from '../../lib/prices.ts';
import { IDLE_STACK, idleCents, ROTATING_KEYS } from '../../scripts/docs-idle-cost.ts';
import { synthDefault, synthDoorcode } from './synth.ts';

const defaults = synthDefault();
const cost = idleCostOf(defaults.template.toJSON());

describe('idle cost (docs/operations.md "What it costs idle")', () => {
  it(`is at most ${IDLE_BUDGET_CENTS / 100} dollars a month for the default stack`, () => {
    expect(cost.cents).toBeLessThanOrEqual(IDLE_BUDGET_CENTS);
  });

  it('holds what docs/operations.md states (scripts/docs-idle-cost.ts, npm run docs)', () => {
    const stated = Object.fromEntries(Object.entries(IDLE_STACK).map(([item, { count }]) => [item, count]));
    expect(cost.counts).toEqual({ ...stated, kmsRotation: 0 });
    expect(cost.cents).toBe(idleCents());
    expect(cost.rotatingKeys).toBe(ROTATING_KEYS);
  });

  it('breaks down as 2 KMS keys, 1 secret and 6 alarm metrics: $3.00', () => {
    expect(idleCents()).toBe(300);
  });

  it('prices every resource of the template, or knows it costs nothing idle', () => {
    const types = new Set(
      Object.values(defaults.template.toJSON().Resources as Record<string, { Type: string }>).map(
        (r) => r.Type,
      ),
    );
    const priced = ['AWS::KMS::Key', 'AWS::SecretsManager::Secret', 'AWS::CloudWatch::Alarm'];
    for (const type of types) expect(priced.includes(type) || type in FREE_WHILE_IDLE, type).toBe(true);
    expect(() => idleCostOf({ Resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: {} } } })).toThrow(
      /Queue: AWS::SQS::Queue is neither priced/,
    );
  });

  it('counts each metric of a metric-math alarm, and refuses a high-resolution alarm or a provisioned table', () => {
    const math = {
      Type: 'AWS::CloudWatch::Alarm',
      Properties: {
        Metrics: [
          { Id: 'e', Expression: 'a + b' },
          { Id: 'a', MetricStat: { Period: 300 } },
          { Id: 'b', MetricStat: { Period: 300 } },
        ],
      },
    };
    expect(idleCostOf({ Resources: { Math: math } }).counts.alarmMetric).toBe(2);
    expect(() =>
      idleCostOf({ Resources: { Fast: { Type: 'AWS::CloudWatch::Alarm', Properties: { Period: 10 } } } }),
    ).toThrow(/high-resolution/);
    expect(() =>
      idleCostOf({
        Resources: { T: { Type: 'AWS::DynamoDB::Table', Properties: { BillingMode: 'PROVISIONED' } } },
      }),
    ).toThrow(/provisioned/);
  });

  it('adds $3.00 with -c dashboard=true, and nothing with alarmEmail, tracing or a custom domain', () => {
    expect(idleCostOf(synthDoorcode({ dashboard: true }).template.toJSON()).cents).toBe(
      cost.cents + PRICES.dashboard.cents,
    );
    const options = synthDoorcode({
      alarmEmail: 'ops@example.com',
      tracing: true,
      domain: 'auth.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab',
    });
    expect(idleCostOf(options.template.toJSON()).cents).toBe(cost.cents);
  });
});
