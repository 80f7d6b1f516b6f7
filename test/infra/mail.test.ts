import { describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes.ts';
import { synthDefault, synthDoorcode, testInputs, variablesOf } from './synth.ts';

const mailRoutes = routeList.filter((route) => route.access.mail);

describe('mail reputation', () => {
  const { template, resources, logicalId, routeFunction, onlyResourceOf } = synthDefault();
  const configurationSetId = onlyResourceOf('AWS::SES::ConfigurationSet');
  const topicId = onlyResourceOf('AWS::SNS::Topic');

  it('has one configuration set that suppresses hard bounces and complaints', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
    });
  });

  it('names the configuration set in every function that sends mail', () => {
    expect(mailRoutes.map((route) => route.id)).toContain('codeStart');
    for (const route of mailRoutes) {
      const variables = variablesOf(resources[logicalId(routeFunction(route.id).function)]!);
      expect(variables.SES_CONFIGURATION_SET).toEqual({ Ref: configurationSetId });
      expect(variables.MAX_CODE_EMAILS_PER_HOUR).toBe('1000');
    }
  });

  it('sends bounce, complaint and reject events to an encrypted topic of the stack, published only by SES for this set', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: configurationSetId },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint', 'reject'],
        SnsDestination: { TopicARN: { Ref: topicId } },
      },
    });
    // Encrypted with the sealing key, not a key of its own ($1.00 a month): SES may use it for SNS
    // topics of this account only (test/infra/sealing-key.test.ts pins the statement).
    const topic = resources[topicId]!;
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    const [keyId] = (topic.Properties.KmsMasterKeyId as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    expect(resources[keyId]!.Properties).toMatchObject({
      Description: "doorcode: seals application owners' OAuth client secrets",
      EnableKeyRotation: true,
    });
    template.resourceCountIs('AWS::KMS::Key', 2);
    const keyStatements = (
      resources[keyId]!.Properties.KeyPolicy as { Statement: Array<Record<string, unknown>> }
    ).Statement;
    expect(keyStatements).toContainEqual(
      expect.objectContaining({
        Principal: { Service: 'ses.amazonaws.com' },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Condition: expect.objectContaining({ StringEquals: { 'aws:SourceAccount': expect.anything() } }),
      }),
    );
    const policies = Object.values(template.findResources('AWS::SNS::TopicPolicy'));
    expect(policies).toHaveLength(1);
    const statements = (
      policies[0]!.Properties as { PolicyDocument: { Statement: Array<Record<string, unknown>> } }
    ).PolicyDocument.Statement;
    const publish = statements.find((s) => s.Action === 'sns:Publish' && s.Effect === 'Allow');
    expect(publish).toMatchObject({
      Principal: { Service: 'ses.amazonaws.com' },
      Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
    });
    // enforceSSL: no publish or subscribe over plain HTTP.
    expect(statements.some((s) => s.Effect === 'Deny')).toBe(true);
  });

  it('outputs the topic to subscribe to', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.MailEventsTopicArn?.Value).toEqual({ Ref: topicId });
  });
});

describe('the sender identity', () => {
  it('creates the identity and retains it on cdk destroy, not after a failed first create', () => {
    const { template } = synthDefault();
    template.hasResource('AWS::SES::EmailIdentity', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
      Properties: { EmailIdentity: testInputs.senderEmail },
    });
  });

  it('retains a created domain identity too', () => {
    const { template } = synthDoorcode({
      domain: 'auth.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab',
    });
    template.hasResource('AWS::SES::EmailIdentity', {
      DeletionPolicy: 'RetainExceptOnCreate',
      Properties: { EmailIdentity: 'example.com' },
    });
  });

  it('creates none with -c senderIdentity=existing, and still pins SendEmail to the sender by FromAddress', () => {
    const { template, stack } = synthDoorcode({ senderIdentity: 'existing' });
    template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    const sendStatements = Object.values(template.findResources('AWS::IAM::Role')).flatMap((role) =>
      (
        (role.Properties.Policies ?? []) as Array<{
          PolicyDocument: { Statement: Array<Record<string, unknown>> };
        }>
      )
        .flatMap((policy) => policy.PolicyDocument.Statement)
        .filter((s) => [s.Action].flat().includes('ses:SendEmail')),
    );
    expect(sendStatements.length).toBeGreaterThan(0);
    // The resource list is exactly the configuration set, the sandbox's `identity/*` and the sender;
    // `identity/*` makes the sender's own ARN no narrower, so the FromAddress condition is what pins it.
    const tail = (arn: unknown) => {
      const parts = (arn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
      const last = parts.at(-1);
      return typeof last === 'string' ? last : `${String(parts.at(-2))}<${JSON.stringify(last)}>`;
    };
    for (const statement of sendStatements) {
      const named = [stack.resolve(statement.Resource)].flat().map(tail).sort();
      expect(named).toEqual([
        ':configuration-set/<{"Ref":"MailConfigurationSet2AA84368"}>',
        ':identity/*',
        `:identity/${testInputs.senderEmail}`,
      ]);
      expect(statement.Condition).toEqual({ StringEquals: { 'ses:FromAddress': testInputs.senderEmail } });
    }
  });
});
