import { describe, expect, it } from 'vitest';
import { KEY_ADMIN_ACTIONS } from '../../lib/signing-key.ts';
import { routeList } from '../../shared/routes.ts';
import { synthDefault, type synthDoorcode, variablesOf } from './synth.ts';

interface KeyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal: { AWS: unknown } | { Service: unknown } | '*';
  Action: string | string[];
  Condition?: Record<string, Record<string, unknown>>;
}
type Synth = ReturnType<typeof synthDoorcode>;
type Route = (typeof routeList)[number];

const description = "doorcode: seals application owners' OAuth client secrets";
const actionsOf = (s: KeyStatement) => [s.Action].flat();
const arnsOf = (value: unknown) =>
  [value]
    .flat()
    .map((arn) => JSON.stringify(arn))
    .sort();

function sealingKey(synth: Synth) {
  const keys = Object.values(
    synth.template.findResources('AWS::KMS::Key', { Properties: { Description: description } }),
  );
  expect(keys).toHaveLength(1);
  const key = keys[0]!;
  return { key, statements: (key.Properties.KeyPolicy as { Statement: KeyStatement[] }).Statement };
}

/** The sealing key's logical id. */
const sealingKeyId = (synth: Synth) =>
  Object.keys(synth.template.findResources('AWS::KMS::Key', { Properties: { Description: description } }))[0];

/** The `SEALING_KEY_ID` environment value of a route's function, if it has one. */
const sealingKeyIdOf = (synth: Synth, id: Route['id']) =>
  variablesOf(synth.resources[synth.logicalId(synth.routeFunction(id).function)]!).SEALING_KEY_ID;

/** `{"Fn::GetAtt":["<role>","Arn"]}` of the roles of `routes` whose access passes `uses`, once each. */
const roleArns = (synth: Synth, routes: readonly Route[], uses: (route: Route) => boolean) =>
  [
    ...new Set(
      routes
        .filter(uses)
        .map((route) =>
          JSON.stringify({ 'Fn::GetAtt': [synth.logicalId(synth.routeFunction(route.id).role), 'Arn'] }),
        ),
    ),
  ].sort();

/**
 * Which roles the key policy allows `action`: the `aws:PrincipalArn` roles of each Allow naming it
 * to an IAM principal (the SNS publisher's statement names a service: its own test).
 */
const allowed = (statements: KeyStatement[], action: string) =>
  statements
    .filter(
      (s) =>
        s.Effect === 'Allow' &&
        typeof s.Principal === 'object' &&
        'AWS' in s.Principal &&
        actionsOf(s).some((a) => a === action || a === 'kms:*'),
    )
    .flatMap((s) => arnsOf(s.Condition?.ArnEquals?.['aws:PrincipalArn']))
    .sort();

const applicationContext = {
  StringLike: { 'kms:EncryptionContext:applicationId': 'app_*' },
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['applicationId'] },
};

describe('the sealing key', () => {
  const synth = synthDefault();
  const { key, statements } = sealingKey(synth);
  const encrypters = roleArns(synth, routeList, (route) => route.access.seal === 'encrypt');

  it('is a symmetric key, rotated by KMS, retained, with an explicit policy', () => {
    expect(key.Properties.KeyUsage ?? 'ENCRYPT_DECRYPT').toBe('ENCRYPT_DECRYPT');
    expect(key.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    // Kept, but deleted by the rollback of a failed first create, which sealed nothing (lib/fail-safe.ts).
    expect(key).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    // No wildcard action, but the GenerateDataKey* SNS asks for on behalf of SES (its own test below).
    expect(
      statements
        .filter((s) => s.Sid !== 'EncryptTopicsForTheirPublishers')
        .flatMap(actionsOf)
        .some((action) => action.includes('*')),
    ).toBe(false);
  });

  it('lets only the configuration write routes encrypt, and only with one application as the context', () => {
    const writers = routeList.filter((route) => route.access.seal === 'encrypt').map((route) => route.id);
    expect(writers.sort()).toEqual(['patchConfiguration', 'replaceConfiguration']);
    expect(allowed(statements, 'kms:Encrypt')).toEqual(encrypters);
    const encrypt = statements.find((s) => s.Effect === 'Allow' && actionsOf(s).includes('kms:Encrypt'));
    expect(encrypt?.Principal).toEqual({ AWS: '*' });
    expect(encrypt?.Condition).toMatchObject({
      ...applicationContext,
      StringEquals: { 'aws:PrincipalAccount': { Ref: 'AWS::AccountId' } },
    });
    const deny = statements.find((s) => s.Effect === 'Deny' && actionsOf(s).includes('kms:Encrypt'));
    expect(arnsOf(deny?.Condition?.ArnNotEquals?.['aws:PrincipalArn'])).toEqual(encrypters);
  });

  it('lets the account root administer the key and rotation, never use it', () => {
    const root = statements.filter((s) => s.Sid === 'AdministerWithoutUse');
    expect(root).toHaveLength(1);
    expect(actionsOf(root[0]!)).toEqual(
      expect.arrayContaining([...KEY_ADMIN_ACTIONS, 'kms:EnableKeyRotation']),
    );
    for (const use of [
      'kms:Encrypt',
      'kms:Decrypt',
      'kms:ReEncryptFrom',
      'kms:ReEncryptTo',
      'kms:GenerateDataKey',
      'kms:CreateGrant',
    ]) {
      expect(actionsOf(root[0]!)).not.toContain(use);
    }
  });

  it('gives no role an IAM statement on KMS: the key policy alone says who seals', () => {
    for (const role of Object.values(synth.template.findResources('AWS::IAM::Role'))) {
      const policies = (role.Properties.Policies ?? []) as Array<{
        PolicyDocument: { Statement: KeyStatement[] };
      }>;
      const actions = policies.flatMap((policy) => policy.PolicyDocument.Statement.flatMap(actionsOf));
      expect(actions.filter((action) => action.startsWith('kms:'))).toEqual([]);
    }
  });

  it('hands the sealing key ARN as SEALING_KEY_ID to exactly the functions of routes that seal, and names it in an output', () => {
    // Prepare
    const keyArn = { 'Fn::GetAtt': [sealingKeyId(synth), 'Arn'] };
    const outputs = synth.template.toJSON().Outputs as Record<string, { Value: unknown }>;

    // Act
    const given = routeList.filter((route) => sealingKeyIdOf(synth, route.id) !== undefined);

    // Assess
    expect(outputs.SealingKeyArn?.Value).toEqual(keyArn);
    expect(given.map((route) => route.id).sort()).toEqual([
      'patchConfiguration',
      'replaceConfiguration',
      'socialCallback',
    ]);
    expect(given.map((route) => route.id).sort()).toEqual(
      routeList
        .filter((route) => route.access.seal)
        .map((route) => route.id)
        .sort(),
    );
    for (const route of given) expect(sealingKeyIdOf(synth, route.id)).toEqual(keyArn);
  });

  it('lets only the social callback decrypt, within its application context, and hands it the key id', () => {
    // Prepare
    const decrypters = roleArns(synth, routeList, (route) => route.access.seal === 'decrypt');

    // Act
    const decrypt = statements.find((s) => s.Effect === 'Allow' && actionsOf(s).includes('kms:Decrypt'));
    const deny = statements.find((s) => s.Effect === 'Deny' && actionsOf(s).includes('kms:Decrypt'));

    // Assess
    expect(routeList.filter((route) => route.access.seal === 'decrypt').map((route) => route.id)).toEqual([
      'socialCallback',
    ]);
    expect(decrypters).toHaveLength(1);
    expect(allowed(statements, 'kms:Decrypt')).toEqual(decrypters);
    expect(allowed(statements, 'kms:Encrypt')).not.toEqual(expect.arrayContaining(decrypters));
    expect(decrypt?.Condition).toMatchObject(applicationContext);
    expect(arnsOf(deny?.Condition?.ArnNotEquals?.['aws:PrincipalArn'])).toEqual(decrypters);
    expect(sealingKeyIdOf(synth, 'socialCallback')).toEqual({ 'Fn::GetAtt': [sealingKeyId(synth), 'Arn'] });
  });

  it('lets SES encrypt only for SNS topics of this account (the mail-events topic), never with an application context', () => {
    const topicsOfThisAccount = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':sns:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':*',
        ],
      ],
    };
    const services = statements.filter((s) => typeof s.Principal === 'object' && 'Service' in s.Principal);
    expect(services).toEqual([
      {
        Sid: 'EncryptTopicsForTheirPublishers',
        Effect: 'Allow',
        Principal: { Service: 'ses.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Resource: '*',
        Condition: {
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          StringLike: { 'kms:EncryptionContext:aws:sns:topicArn': topicsOfThisAccount },
        },
      },
    ]);
    // The Deny of Decrypt spares only a request whose context names an SNS topic of this account:
    // a sealed secret's context is its applicationId alone, so it stays the social callback's.
    const deny = statements.find((s) => s.Effect === 'Deny' && actionsOf(s).includes('kms:Decrypt'));
    expect(Object.keys(deny?.Condition ?? {}).sort()).toEqual(['ArnNotEquals', 'StringNotLike']);
    expect(deny?.Condition?.StringNotLike).toEqual({
      'kms:EncryptionContext:aws:sns:topicArn': topicsOfThisAccount,
    });
    // No service may Encrypt (SNS uses GenerateDataKey), and the Encrypt Deny spares nobody.
    const encryptDeny = statements.find((s) => s.Effect === 'Deny' && actionsOf(s).includes('kms:Encrypt'));
    expect(Object.keys(encryptDeny?.Condition ?? {})).toEqual(['ArnNotEquals']);
  });
});
