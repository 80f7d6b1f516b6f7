import { CfnResource, TagManager } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { hasReservedConcurrency } from '../../lib/doorcode-stack.ts';
import { routeList } from '../../shared/routes.ts';
import { tableSchema } from '../../shared/store/table.ts';
import { allIdentityStatements } from './policies.ts';
import { synthDefault, synthDoorcode, variablesOf } from './synth.ts';

/** A CloudFormation string value as text: `Fn::Join` flattened, `{ Ref: X }` written `${X}`. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const object = value as Record<string, unknown>;
  if (object && typeof object.Ref === 'string') return `\${${object.Ref}}`;
  const join = object?.['Fn::Join'] as [string, unknown[]] | undefined;
  if (join) return join[1].map(text).join(join[0]);
  return JSON.stringify(value);
}

/** A resource's tags as a map, whether CloudFormation takes them as a list or as a map. */
function tagsOf(properties: Record<string, unknown> | undefined): Record<string, unknown> {
  const tags = properties?.Tags;
  if (Array.isArray(tags)) {
    return Object.fromEntries((tags as Array<{ Key: string; Value: unknown }>).map((t) => [t.Key, t.Value]));
  }
  return (tags as Record<string, unknown> | undefined) ?? {};
}

const defaults = synthDefault();
const tags = { team: 'identity', 'cost-center': '1234' };
const restoredStream =
  'arn:aws:dynamodb:eu-west-1:123456789012:table/doorcode-restored-2026-11-23/stream/2026-11-23T00:00:00.000';
const operated = synthDoorcode({
  logRetentionDays: 365,
  lambdaMemoryMb: 512,
  reservedConcurrency: 5,
  terminationProtection: false,
  tags,
  tableName: 'doorcode-restored-2026-11-23',
  tableStreamArn: restoredStream,
});

const functionsOf = (synth: typeof defaults) =>
  routeList.map((route) => ({
    route,
    properties: synth.resources[synth.logicalId(synth.routeFunction(route.id).function)]!.Properties,
  }));

describe('operational settings (docs/deploy.md)', () => {
  it('by default: 256 MB, no reserved concurrency, logs kept 30 days, termination protection on', () => {
    for (const { properties } of functionsOf(defaults)) {
      expect(properties.MemorySize).toBe(256);
      expect(properties).not.toHaveProperty('ReservedConcurrentExecutions');
    }
    const logGroups = Object.values(defaults.template.findResources('AWS::Logs::LogGroup'));
    expect(logGroups).toHaveLength(2);
    for (const group of logGroups) expect(group.Properties.RetentionInDays).toBe(30);
    expect(defaults.stack.terminationProtection).toBe(true);
  });

  it('gives every function lambdaMemoryMb and each sign-in-by-code function reservedConcurrency', () => {
    const functions = functionsOf(operated);
    for (const { properties } of functions) expect(properties.MemorySize).toBe(512);
    const reserved = functions.filter(({ properties }) => properties.ReservedConcurrentExecutions === 5);
    expect(reserved.map(({ route }) => route.path).sort()).toEqual(
      [
        '/auth/code/approve',
        '/auth/code/peek',
        '/auth/code/poll',
        '/auth/code/start',
        '/auth/code/verify',
      ].sort(),
    );
    expect(functions.filter(({ properties }) => 'ReservedConcurrentExecutions' in properties)).toHaveLength(
      routeList.filter(hasReservedConcurrency).length,
    );
  });

  it('keeps both log groups (functions and API access) logRetentionDays', () => {
    const logGroups = Object.values(operated.template.findResources('AWS::Logs::LogGroup'));
    expect(logGroups).toHaveLength(2);
    for (const group of logGroups) expect(group.Properties.RetentionInDays).toBe(365);
  });

  it('turns termination protection off only when told', () => {
    expect(operated.stack.terminationProtection).toBe(false);
    const artifact = operated.app.synth().getStackByName(operated.stack.stackName);
    expect(artifact.terminationProtection).toBe(false);
  });

  it('tags the stack and every resource that takes tags', () => {
    // Stack tags: the CLI passes them to CloudFormation, which gives them to what CDK cannot tag.
    expect(operated.app.synth().getStackByName(operated.stack.stackName).tags).toMatchObject(tags);
    const taggable = operated.stack.node
      .findAll()
      .filter((construct): construct is CfnResource => construct instanceof CfnResource)
      .filter((resource) => TagManager.isTaggable(resource));
    expect(taggable.length).toBeGreaterThan(routeList.length);
    for (const resource of taggable) {
      const properties = operated.resources[operated.stack.getLogicalId(resource)]?.Properties;
      expect(tagsOf(properties), resource.node.path).toMatchObject(tags);
    }
    // Without the setting, no tag of ours appears.
    expect(JSON.stringify(defaults.template.toJSON())).not.toContain('cost-center');
  });
});

describe('deploying against an existing table (tableName, a point-in-time restore)', () => {
  const name = 'doorcode-restored-2026-11-23';
  const tableArn = `arn:\${AWS::Partition}:dynamodb:\${AWS::Region}:\${AWS::AccountId}:table/${name}`;

  it('creates no table', () => {
    operated.template.resourceCountIs('AWS::DynamoDB::Table', 0);
    defaults.template.resourceCountIs('AWS::DynamoDB::Table', 1);
  });

  it('grants only on the imported table and its indexes, reads on every index, and its stream to the aggregator', () => {
    const streamActions = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
    const statements = allIdentityStatements(operated.template);
    const onStream = statements.filter((statement) =>
      statement.actions.some((a) => streamActions.includes(a)),
    );
    expect(onStream.flatMap((statement) => statement.resources.map(text))).toEqual([restoredStream]);
    const tableStatements = statements.filter(
      (statement) =>
        !onStream.includes(statement) &&
        !statement.actions.every((action) => action === 'dynamodb:ListStreams') &&
        statement.actions.some((action) => action.startsWith('dynamodb:')),
    );
    expect(tableStatements.length).toBeGreaterThan(0);
    const allowed = new Set([
      tableArn,
      ...tableSchema.indexes.map((index) => `${tableArn}/index/${index.name}`),
    ]);
    for (const statement of tableStatements) {
      for (const resource of statement.resources) expect(allowed).toContain(text(resource));
    }
    // Query is granted on the table and, in its own statement (its own LeadingKeys), on every index.
    const queries = tableStatements.filter((statement) => statement.actions.includes('dynamodb:Query'));
    expect(queries.length).toBeGreaterThan(0);
    const queried = new Set(queries.flatMap((statement) => statement.resources.map(text)));
    expect([...queried].sort()).toEqual([...allowed].sort());
    const writes = tableStatements.filter((statement) => statement.actions.includes('dynamodb:PutItem'));
    expect(writes.length).toBeGreaterThan(0);
    for (const statement of writes) expect(statement.resources.map(text)).toEqual([tableArn]);
  });

  it('names the table to the functions, the dashboard and the TableName output', () => {
    for (const { properties } of functionsOf(operated)) {
      expect(variablesOf({ Type: 'AWS::Lambda::Function', Properties: properties }).TABLE_NAME).toBe(name);
    }
    // No alarm reads the table (lib/alarms.ts): its graphs are on the opt-in dashboard.
    const withDashboard = synthDoorcode({ tableName: name, tableStreamArn: restoredStream, dashboard: true });
    const [dashboard] = Object.values(withDashboard.template.findResources('AWS::CloudWatch::Dashboard'));
    const body = JSON.stringify(dashboard);
    expect(body).toContain('AWS/DynamoDB');
    expect(body).toContain(name);
    expect(body).not.toMatch(/DataTable/);
    expect(operated.template.toJSON().Outputs.TableName.Value).toBe(name);
  });
});

describe('teardown (docs/operations.md "Teardown: what cdk destroy keeps")', () => {
  type Policies = { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string };
  const resourcesOf = (synth: typeof defaults) =>
    Object.values(synth.template.toJSON().Resources as Record<string, Policies>);
  /** What `cdk destroy` keeps: Retain, or RetainExceptOnCreate (kept but by the rollback of its creation). */
  const retained = (synth: typeof defaults) =>
    resourcesOf(synth)
      .filter((resource) => resource.DeletionPolicy?.startsWith('Retain'))
      .map((resource) => resource.Type)
      .sort();

  it('keeps the table, the signing key, the sealing key, the SES identity and both log groups, and nothing else', () => {
    expect(retained(defaults)).toEqual([
      'AWS::DynamoDB::Table',
      'AWS::KMS::Key',
      'AWS::KMS::Key',
      'AWS::Logs::LogGroup',
      'AWS::Logs::LogGroup',
      'AWS::SES::EmailIdentity',
    ]);
    const keys = Object.values(defaults.template.findResources('AWS::KMS::Key'));
    // The signing key, and the symmetric sealing key (KMS's default usage, rotated).
    expect(keys.map((key) => key.Properties.KeyUsage ?? 'ENCRYPT_DECRYPT').sort()).toEqual([
      'ENCRYPT_DECRYPT',
      'SIGN_VERIFY',
    ]);
    defaults.template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Delete' });
  });

  it('keeps no table of its own against an existing one', () => {
    expect(retained(operated)).not.toContain('AWS::DynamoDB::Table');
  });
});

describe('a failed first deploy (docs/operations.md "A failed first deploy")', () => {
  it('deletes what it kept but the table when the deploy that created it rolls back: RetainExceptOnCreate', () => {
    for (const synth of [
      defaults,
      operated,
      synthDoorcode({ alarmEmail: 'ops@example.com', dashboard: true }),
    ]) {
      const kept = Object.values(
        synth.template.toJSON().Resources as Record<
          string,
          { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string }
        >,
      ).filter((resource) => resource.DeletionPolicy?.startsWith('Retain'));
      for (const resource of kept.filter((r) => r.Type !== 'AWS::DynamoDB::Table')) {
        expect(resource, resource.Type).toMatchObject({
          DeletionPolicy: 'RetainExceptOnCreate',
          UpdateReplacePolicy: 'Retain',
        });
      }
    }
  });

  it('keeps Retain on the deletion-protected table, which a rollback could not delete', () => {
    defaults.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { DeletionProtectionEnabled: true },
    });
  });
});
