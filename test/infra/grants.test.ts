import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { accessStatements, type GrantTargets } from '../../lib/grants.ts';
import type { AccessProfile } from '../../shared/routes.ts';
import type { ItemFamily } from '../../shared/store/keys.ts';
import { allIdentityStatements } from './policies.ts';

const targets: GrantTargets = {
  tableArn: 'arn:aws:dynamodb:eu-west-1:123456789012:table/t',
  indexArns: ['arn:aws:dynamodb:eu-west-1:123456789012:table/t/index/gsi1'],
  senderIdentityArn: 'arn:aws:ses:eu-west-1:123456789012:identity/no-reply@example.com',
  recipientIdentitiesArn: 'arn:aws:ses:eu-west-1:123456789012:identity/*',
  senderAddress: 'no-reply@example.com',
  configurationSetArn: 'arn:aws:ses:eu-west-1:123456789012:configuration-set/doorcode-mail',
  codeKeySecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:code-key-AbCdEf',
};

/** The statements as IAM receives them (after CDK's own rendering and merging). */
function rendered(access: AccessProfile, items: readonly ItemFamily[] = []) {
  const stack = new Stack(new App({ context: { '@aws-cdk/aws-iam:minimizePolicies': true } }), 'Grants');
  const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  for (const statement of accessStatements(access, targets, items)) role.addToPrincipalPolicy(statement);
  return allIdentityStatements(Template.fromStack(stack));
}

describe('accessStatements', () => {
  it('grants nothing to a route that declares nothing', () => {
    expect(accessStatements({}, targets)).toEqual([]);
  });

  it('scopes reads to the table and its indexes, writes to the table only, each to its families’ partitions', () => {
    const statements = rendered({ table: 'readwrite' }, [
      'organization',
      'account',
      'organizationApplications',
    ]);
    // One line per action and resource with its condition, whatever CDK merged.
    const grants = statements
      .flatMap((s) => s.actions.flatMap((action) => s.resources.map((resource) => ({ action, resource, s }))))
      .map(
        ({ action, resource, s }) =>
          `${action} ${resource} ${s.condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']}`,
      )
      .sort();
    const table = (action: string) => `dynamodb:${action} ${targets.tableArn} ACCOUNT#*,ORG#*`;
    expect(grants).toEqual(
      [
        ...['BatchGetItem', 'ConditionCheckItem', 'GetItem', 'Query'].map(table),
        `dynamodb:Query ${targets.indexArns[0]} ORGAPPS#*`,
        ...['BatchWriteItem', 'DeleteItem', 'PutItem', 'UpdateItem'].map(table),
      ].sort(),
    );
    expect(statements.every((s) => Object.keys(s.condition ?? {}).join() === 'ForAllValues:StringLike')).toBe(
      true,
    );
  });

  it('grants no table access at all without item families, and no index access without index families', () => {
    expect(accessStatements({ table: 'readwrite' }, targets)).toEqual([]);
    const statements = rendered({ table: 'read' }, ['health']);
    expect(statements.map((s) => s.resources)).toEqual([[targets.tableArn]]);
    expect(statements[0]?.condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['HEALTH'] },
    });
  });

  it('grants no KMS action: the signing keys’ policies do (lib/signing-key.ts)', () => {
    expect(rendered({ sign: true, publicKeys: true })).toEqual([]);
  });

  it('lets a mailer send only from the sender address through the configuration set, to any identity (the SES sandbox checks recipients)', () => {
    expect(rendered({ mail: true })).toEqual([
      {
        policy: expect.any(String),
        effect: 'Allow',
        actions: ['ses:SendEmail'],
        resources: [targets.configurationSetArn, targets.recipientIdentitiesArn, targets.senderIdentityArn],
        condition: { StringEquals: { 'ses:FromAddress': targets.senderAddress } },
      },
      {
        policy: expect.any(String),
        effect: 'Allow',
        actions: ['ses:GetSuppressedDestination'],
        resources: ['*'],
        condition: undefined,
      },
    ]);
  });

  it('lets a route that hashes codes read the code-hash secret, and nothing else of Secrets Manager', () => {
    expect(
      rendered({ codeKey: true }).map((s) => ({
        actions: s.actions,
        resources: s.resources,
        condition: s.condition,
      })),
    ).toEqual([
      {
        actions: ['secretsmanager:GetSecretValue'],
        resources: [targets.codeKeySecretArn],
        condition: undefined,
      },
    ]);
  });
});
