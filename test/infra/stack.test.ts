import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { CODE_CHECK_THROTTLE } from '../../shared/route-spec.ts';
import { DEFAULT_THROTTLE, routeList, routes } from '../../shared/routes.ts';
import { keySchemaDefinition, tableSchema } from '../../shared/store/table.ts';
import { refersTo } from './policies.ts';
import { dependencyCycle } from './references.ts';
import { type Resource, synthDefault, testInputs, variablesOf } from './synth.ts';

const { stack, template, resources, logicalId, routeFunction, onlyResourceOf } = synthDefault();

const tableId = onlyResourceOf('AWS::DynamoDB::Table');
const keyId = Object.keys(
  template.findResources('AWS::KMS::Key', { Properties: { KeyUsage: 'SIGN_VERIFY' } }),
)[0]!;
const apiId = onlyResourceOf('AWS::ApiGatewayV2::Api');
const sealingKeyId = Object.keys(
  template.findResources('AWS::KMS::Key', {
    Properties: { Description: "doorcode: seals application owners' OAuth client secrets" },
  }),
)[0]!;

describe('Lambda functions', () => {
  it('creates exactly one function per route, and only the statistics aggregator besides', () => {
    template.resourceCountIs('AWS::Lambda::Function', routeList.length + 1);
    expect(resources[logicalId(stack.statisticsAggregator.function)]?.Type).toBe('AWS::Lambda::Function');
    expect(new Set(routeList.map((route) => logicalId(routeFunction(route.id).function))).size).toBe(
      routeList.length,
    );
    expect(Object.values(resources).filter((r) => r.Type.startsWith('Custom::'))).toEqual([]);
  });

  it.each(routeList)('runs $id on arm64 and nodejs24.x without --enable-source-maps', (route) => {
    const fn = resources[logicalId(routeFunction(route.id).function)]!;
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 256,
      Timeout: 10,
    });
    // It would parse the whole source map at every cold start (bench/bundles.ts); shared/log.ts maps
    // an unexpected error's stack itself.
    expect(variablesOf(fn).NODE_OPTIONS).toBeUndefined();
  });

  it.each(routeList)('logs $id as JSON to the log group all functions share, kept for a month', (route) => {
    const fn = routeFunction(route.id);
    const logGroupId = logicalId(fn.logGroup);
    expect(logGroupId).toBe(logicalId(stack.accessRoles.logGroup));
    expect(resources[logicalId(fn.function)]!.Properties).toMatchObject({
      LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'DEBUG', LogGroup: { Ref: logGroupId } },
    });
    expect(resources[logGroupId]!.Properties).toMatchObject({ RetentionInDays: 30 });
  });

  it("creates two log groups: the functions' one and the API access logs", () => {
    template.resourceCountIs('AWS::Logs::LogGroup', 2);
  });

  it.each(routeList)('gives $id a configuration that passes loadConfig', (route) => {
    const variables = variablesOf(resources[logicalId(routeFunction(route.id).function)]!);
    expect(variables.ISSUER).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    expect(variables.TABLE_NAME).toEqual({ Ref: tableId });
    expect(variables.KMS_KEY_IDS).toBeUndefined();
    expect(variables.SIGNING_KEYS).toEqual({
      'Fn::Join': ['', ['[{"keyId":"', { 'Fn::GetAtt': [keyId, 'Arn'] }, '"}]']],
    });
    expect(variables.CODE_KEY_SECRET_ARN).toEqual({ Ref: onlyResourceOf('AWS::SecretsManager::Secret') });
    // Only a route that seals gets the sealing key (test/infra/sealing-key.test.ts).
    expect(variables.SEALING_KEY_ID).toEqual(
      route.access.seal ? { 'Fn::GetAtt': [sealingKeyId, 'Arn'] } : undefined,
    );
    expect(variables.SES_CONFIGURATION_SET).toEqual({ Ref: onlyResourceOf('AWS::SES::ConfigurationSet') });
    expect(variables.MAX_CODE_EMAILS_PER_HOUR).toBe(String(testInputs.maxCodeEmailsPerHour));
    // What CloudFormation puts in place of the tokens at deploy time.
    const deployed: Record<string, unknown> = {
      ...variables,
      ISSUER: 'https://abc123.execute-api.eu-west-1.amazonaws.com',
      TABLE_NAME: 'DoorcodeStack-DataTable-1ABC',
      SIGNING_KEYS:
        '[{"keyId":"arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"}]',
      CODE_KEY_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CodeKeySecret-AbCdEf',
      ...(route.access.seal
        ? { SEALING_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/5678abcd-12ab-34cd-56ef-1234567890ab' }
        : {}),
      SES_CONFIGURATION_SET: 'MailConfigurationSet1A2B3C4D',
      AWS_REGION: 'eu-west-1',
    };
    expect(Object.values(deployed).every((value) => typeof value === 'string')).toBe(true);
    const config = loadConfig(deployed as Record<string, string>);
    expect(config).toMatchObject({
      SERVICE_NAME: testInputs.serviceName,
      MAIL_FROM: testInputs.senderEmail,
      PLATFORM_ORIGINS: testInputs.platformOrigins,
      LOG_LEVEL: 'info',
      SES_CONFIGURATION_SET: 'MailConfigurationSet1A2B3C4D',
      MAX_CODE_EMAILS_PER_HOUR: testInputs.maxCodeEmailsPerHour,
    });
    expect(config.SIGNING_KEYS).toEqual([
      { keyId: 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' },
    ]);
    expect(config.LOCAL_SIGNING_KEY_FILE).toBeUndefined();
    expect(config.LOCAL_CODE_KEY_FILE).toBeUndefined();
    expect(config.DYNAMODB_ENDPOINT).toBeUndefined();
  });
});

describe('HTTP API', () => {
  it.each(routeList)('sends $method $path to the $id function (payload 2.0)', (route) => {
    const found = template.findResources('AWS::ApiGatewayV2::Route', {
      Properties: { RouteKey: `${route.method} ${route.path}` },
    });
    const [routeResource] = Object.values(found) as Resource[];
    expect(Object.keys(found)).toHaveLength(1);
    const integrationId = Object.keys(resources).find(
      (id) =>
        resources[id]!.Type === 'AWS::ApiGatewayV2::Integration' &&
        refersTo(routeResource!.Properties.Target, id),
    );
    expect(integrationId).toBeDefined();
    expect(resources[integrationId!]!.Properties).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [logicalId(routeFunction(route.id).function), 'Arn'] },
    });
  });

  it.each(routeList)('lets API Gateway invoke the $id function for $method $path only', (route) => {
    const functionId = logicalId(routeFunction(route.id).function);
    const permissions = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Lambda::Permission' && refersTo(r.Properties.FunctionName, functionId),
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]!.Properties).toMatchObject({
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
    });
    const sourceArn = permissions[0]!.Properties.SourceArn as { 'Fn::Join': [string, unknown[]] };
    const parts = sourceArn['Fn::Join'][1];
    expect(parts.at(-2)).toEqual({ Ref: apiId });
    // Any stage (only `$default` exists), the route's own method and path; a route that also answers
    // a parent path (`alsoAt`) is allowed that parent and what follows it.
    const parent = route.alsoAt?.[0];
    expect(parts.at(-1)).toBe(`/*/${route.method}${parent === undefined ? route.path : `${parent}*`}`);
    // The wildcard reaches no route key but the route's own paths.
    if (parent !== undefined) {
      const reached = routeList
        .filter((other) => other.method === route.method)
        .flatMap((other) => [other.path, ...(other.alsoAt ?? [])])
        .filter((path) => path.startsWith(parent));
      expect(reached.sort()).toEqual([route.path, ...(route.alsoAt ?? [])].sort());
    }
  });

  it('has no route outside the route table', () => {
    const routeKeys = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
      .map((r) => r.Properties.RouteKey as string);
    expect(routeKeys.sort()).toEqual(
      routeList
        .flatMap((route) => [route.path, ...(route.alsoAt ?? [])].map((path) => `${route.method} ${path}`))
        .sort(),
    );
  });

  it('throttles the default stage and writes JSON access logs', () => {
    const stage = resources[onlyResourceOf('AWS::ApiGatewayV2::Stage')]!.Properties as {
      StageName: string;
      AutoDeploy: boolean;
      DefaultRouteSettings: { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': string[] }; Format: string };
    };
    expect(stage).toMatchObject({ StageName: '$default', AutoDeploy: true });
    expect(stage.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThan(0);
    expect(stage.DefaultRouteSettings.ThrottlingBurstLimit).toBeGreaterThan(0);
    const format = JSON.parse(stage.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      method: '$context.httpMethod',
      path: '$context.path',
      status: '$context.status',
      latency: '$context.responseLatency',
    });
    const [logGroupId] = stage.AccessLogSettings.DestinationArn['Fn::GetAtt'];
    expect(resources[logGroupId!]).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      Properties: { RetentionInDays: 30 },
    });
  });

  it('gives the stage the default throttle and each route with its own throttle a route setting', () => {
    const stageId = onlyResourceOf('AWS::ApiGatewayV2::Stage');
    const stage = template.toJSON().Resources[stageId] as {
      DependsOn?: string[];
      Properties: {
        DefaultRouteSettings: { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
        RouteSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
      };
    };
    expect(stage.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: DEFAULT_THROTTLE.rate,
      ThrottlingBurstLimit: DEFAULT_THROTTLE.burst,
    });
    const throttled = routeList.filter((route) => route.throttle);
    expect(throttled.length).toBeGreaterThan(0);
    expect(stage.Properties.RouteSettings).toEqual(
      Object.fromEntries(
        throttled.map((route) => [
          `${route.method} ${route.path}`,
          { ThrottlingRateLimit: route.throttle!.rate, ThrottlingBurstLimit: route.throttle!.burst },
        ]),
      ),
    );
    // Each key names a route of the API, and the stage waits for it (API Gateway refuses
    // route settings for a route it does not have yet).
    const routeIds = Object.fromEntries(
      Object.entries(resources)
        .filter(([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Route')
        .map(([id, resource]) => [resource.Properties.RouteKey as string, id]),
    );
    for (const key of Object.keys(stage.Properties.RouteSettings)) {
      expect(routeIds[key], key).toBeDefined();
      expect(stage.DependsOn, key).toContain(routeIds[key]);
    }
  });

  it('throttles sign-in start far below the session check, and below the stage default', () => {
    const start = routes.codeStart.throttle!;
    const session = routes.session.throttle!;
    expect(start.rate * 10).toBeLessThanOrEqual(session.rate);
    expect(start.burst * 10).toBeLessThanOrEqual(session.burst);
    expect(start.rate).toBeLessThan(DEFAULT_THROTTLE.rate);
    for (const route of routeList) {
      const throttle = route.throttle ?? DEFAULT_THROTTLE;
      expect(throttle.rate, route.id).toBeGreaterThan(0);
      expect(throttle.burst, route.id).toBeGreaterThanOrEqual(throttle.rate);
    }
  });

  it('throttles social start and exchange like a code check, and leaves the callback at the stage default', () => {
    // The stage's route settings follow the table (the test above).
    for (const id of ['socialStart', 'socialExchange'] as const) {
      expect(routes[id].throttle, id).toEqual(CODE_CHECK_THROTTLE);
    }
    expect((routes.socialCallback as { throttle?: unknown }).throttle).toBeUndefined();
    expect(CODE_CHECK_THROTTLE.rate).toBeLessThan(DEFAULT_THROTTLE.rate);
  });

  it('keeps the execute-api endpoint without a custom domain (it is the issuer then)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
  });
});

describe('data and keys', () => {
  it('keeps one on-demand table with the shared key schema, TTL and point-in-time recovery', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: keySchemaDefinition.KeySchema,
        GlobalSecondaryIndexes: keySchemaDefinition.GlobalSecondaryIndexes,
        TimeToLiveSpecification: { AttributeName: tableSchema.ttlAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: true,
      },
    });
  });

  it('signs with a retained RSA_2048 SIGN_VERIFY key under the service alias', () => {
    template.hasResource('AWS::KMS::Key', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
      Properties: { KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' },
    });
    template.hasResourceProperties('AWS::KMS::Alias', {
      AliasName: 'alias/doorcode-signing',
      TargetKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
  });

  it('verifies the sender address in SES', () => {
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: testInputs.senderEmail });
  });

  it('outputs the API, JWKS and issuer URLs, the table name and the key ARN', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ApiUrl?.Value).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    expect(outputs.IssuerUrl?.Value).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    expect(outputs.JwksUrl?.Value).toEqual({
      'Fn::Join': ['', [{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }, routes.jwks.path]],
    });
    expect(outputs.TableName?.Value).toEqual({ Ref: tableId });
    expect(outputs.SigningKeyArns?.Value).toEqual({
      'Fn::Join': ['', ['1=', { 'Fn::GetAtt': [keyId, 'Arn'] }]],
    });
  });

  it('has no dependency cycle (every function refers to the API for its issuer)', () => {
    expect(dependencyCycle(resources)).toEqual([]);
  });

  it('raises no CDK warning or error but the one naming alarmEmail while no alarm reaches anyone', () => {
    expect(
      Annotations.fromStack(stack)
        .findWarning('*', Match.anyValue())
        .map((warning) => String(warning.entry.data)),
    ).toEqual([expect.stringMatching(/^No alarm reaches anyone: set -c alarmEmail=.*alarmTopicArn=/)]);
    expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
    // With alarmEmail or alarmTopicArn there is none: test/infra/alarms.test.ts.
  });
});
