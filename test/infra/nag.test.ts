import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { accessProfileConstructId, accessProfileKey } from '../../lib/access-profile.ts';
import { aggregatorAccess } from '../../shared/route-table/statistics-aggregator.ts';
import { routeList } from '../../shared/routes.ts';
import { synthDefault, synthDoorcode } from './synth.ts';

const findings = (inputs: Parameters<typeof synthDoorcode>[0] = {}) => {
  const { app, stack } = synthDoorcode(inputs);
  const report = new AwsSolutionsChecks(app).validateScope(stack);
  return report.violations.map(
    (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
  );
};

// The first check loads every rule and runs it over the whole stack: 7 to 9 s in the infra lane on two
// cores, past 30 s when other runs load them too.
describe('cdk-nag AwsSolutions', { timeout: 60_000 }, () => {
  it('reports no unacknowledged error or warning', () => {
    expect(findings()).toEqual([]);
  });

  it('reports none with a custom domain either', () => {
    expect(
      findings({
        domain: 'auth.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab',
      }),
    ).toEqual([]);
  });

  it('reports none with every operational setting, against an existing table', () => {
    expect(
      findings({
        logRetentionDays: 7,
        lambdaMemoryMb: 1024,
        reservedConcurrency: 5,
        terminationProtection: false,
        tags: { team: 'identity' },
        tableName: 'doorcode-restored',
        tableStreamArn:
          'arn:aws:dynamodb:us-east-1:123456789012:table/doorcode-restored/stream/2026-11-27T00:00:00.000',
      }),
    ).toEqual([]);
  });

  it('reports none with the alarm email topic, the dashboard and active tracing', () => {
    expect(findings({ alarmEmail: 'ops@example.com', dashboard: true, tracing: true })).toEqual([]);
  });

  it('acknowledges only APIG4 on the API, the SES identity wildcard and the suppression-list read of mail profiles and SMG4 on the code key, with written reasons', () => {
    const { stack } = synthDefault();
    const acknowledged = stack.node.findAll().flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) =>
          Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
            path: construct.node.path,
            id: id.replace(/^annotation::/i, ''),
            reason,
          })),
        ),
    );
    const sesWildcard =
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]';
    const mailProfiles = new Set(
      routeList.filter((route) => route.access.mail).map((route) => accessProfileKey(route.access)),
    );
    const suppressionList = 'AwsSolutions-IAM5[Resource::*]';
    const mailRoles = [...mailProfiles].flatMap((key) =>
      [sesWildcard, suppressionList].map((id) => ({
        path: `DoorcodeStack/Roles/${accessProfileConstructId(key)}`,
        id,
      })),
    );
    // The statistics aggregator's stream grant: ListStreams names no resource.
    const streamGrant = {
      path: `DoorcodeStack/Roles/${accessProfileConstructId(accessProfileKey(aggregatorAccess))}/DefaultPolicy`,
      id: suppressionList,
    };
    expect(acknowledged.map(({ path, id }) => ({ path, id }))).toEqual(
      expect.arrayContaining([
        { path: 'DoorcodeStack/Http/Api', id: 'AwsSolutions-APIG4' },
        { path: 'DoorcodeStack/CodeKey/Secret', id: 'AwsSolutions-SMG4' },
        ...mailRoles,
        streamGrant,
      ]),
    );
    expect(acknowledged).toHaveLength(3 + mailRoles.length);
    const reasons: Record<string, RegExp> = {
      [sesWildcard]: /sandbox/,
      [suppressionList]: /GetSuppressedDestination.*no resource type/,
      'AwsSolutions-SMG4': /pending/,
    };
    for (const { path, id, reason } of acknowledged) {
      expect(reason).toMatch(path === streamGrant.path ? /ListStreams/ : (reasons[id] ?? /authoriz/));
    }
  });
});
