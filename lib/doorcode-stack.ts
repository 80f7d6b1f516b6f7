import { Aspects, CfnOutput, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { aggregatorAccess } from '../shared/route-table/statistics-aggregator.ts';
import { type RouteAccess, type RouteId, routeList, routes } from '../shared/routes.ts';
import { tableSchema } from '../shared/store/table.ts';
import { AccessRoles } from './access-roles.ts';
import { Alarms } from './alarms.ts';
import { CodeKey } from './code-key.ts';
import { CustomDomain } from './custom-domain.ts';
import { RetainExceptOnCreate } from './fail-safe.ts';
import type { GrantTargets } from './grants.ts';
import { RouteApi } from './http-api.ts';
import type { DoorcodeInputs } from './inputs.ts';
import { MailReputation } from './mail-reputation.ts';
import { assertSesRegion } from './regions.ts';
import { RouteFunction } from './route-function.ts';
import { SealingKey } from './sealing-key.ts';
import { Sender } from './sender.ts';
import { SigningKey } from './signing-key.ts';
import { StatisticsAggregator } from './statistics-aggregator.ts';
import { SingleTable } from './table.ts';

export interface DoorcodeStackProps extends StackProps {
  readonly inputs: DoorcodeInputs;
  /**
   * The entries of the route table to deploy: all of them unless a test measures what a route
   * costs by deploying part of the table (test/infra/resource-budget.test.ts).
   */
  readonly routes?: typeof routeList;
}

/** `jwks` -> `RouteJwks`: stable construct ids, so logical ids follow the route table. */
const routeConstructId = (id: RouteId): string => `Route${id.charAt(0).toUpperCase()}${id.slice(1)}`;

/** The routes `reservedConcurrency` applies to: those the route table marks `reserved`. */
export const hasReservedConcurrency = (route: { readonly reserved?: true }): boolean =>
  route.reserved === true;

/** The whole service: one function per entry of the route table, behind one HTTP API. */
export class DoorcodeStack extends Stack {
  readonly routeFunctions: ReadonlyMap<RouteId, RouteFunction>;
  readonly accessRoles: AccessRoles;
  readonly alarms: Alarms;
  readonly statisticsAggregator: StatisticsAggregator;

  constructor(scope: Construct, id: string, props: DoorcodeStackProps) {
    super(scope, id, {
      ...props,
      terminationProtection: props.inputs.terminationProtection,
      // The stack's own tags (the explicitStackTags flag keeps Tags.of off them): CloudFormation
      // gives them to every resource it creates, including any CDK cannot tag.
      tags: { ...props.tags, ...props.inputs.tags },
    });
    const { inputs } = props;
    // Sign-in codes go out by SES v2: refuse a Region without it before anything is built.
    assertSesRegion(this.region);
    // A failed first deploy leaves nothing behind that blocks the retry (lib/fail-safe.ts).
    Aspects.of(this).add(new RetainExceptOnCreate());
    // And each taggable resource gets them in the template itself, so a change shows in a diff.
    for (const [key, value] of Object.entries(inputs.tags)) Tags.of(this).add(key, value);
    const retention = inputs.logRetentionDays as RetentionDays;

    const data = new SingleTable(this, 'Data', {
      ...(inputs.tableName ? { existingTableName: inputs.tableName } : {}),
      ...(inputs.tableStreamArn ? { existingTableStreamArn: inputs.tableStreamArn } : {}),
    });
    const signing = new SigningKey(this, 'Signing', {
      serviceName: inputs.serviceName,
      ...(inputs.signingKeys ? { generations: inputs.signingKeys } : {}),
    });
    const codeKey = new CodeKey(this, 'CodeKey', { serviceName: inputs.serviceName });
    const sealing = new SealingKey(this, 'Sealing', { serviceName: inputs.serviceName });
    const sender = new Sender(this, 'Sender', {
      address: inputs.senderEmail,
      verifyDomain: inputs.senderVerification === 'domain',
      mode: inputs.senderIdentity,
    });
    const mail = new MailReputation(this, 'Mail', { serviceName: inputs.serviceName, encryption: sealing });
    const http = new RouteApi(this, 'Http', {
      serviceName: inputs.serviceName,
      // With a domain, the domain is the issuer and the only URL the API answers at.
      disableExecuteApiEndpoint: inputs.domain !== undefined,
      logRetention: retention,
    });
    const customDomain =
      inputs.domain && inputs.certificateArn
        ? new CustomDomain(this, 'Domain', {
            domain: inputs.domain,
            certificateArn: inputs.certificateArn,
            api: http.api,
            stage: http.stage,
          })
        : undefined;
    const issuer = inputs.domain ? `https://${inputs.domain}` : http.api.apiEndpoint;

    // Every function gets the full configuration (shared/config.ts validates it at cold start), but
    // the sealing key's id only where the route declares `seal` (docs/security.md,
    // "Provider client secrets"): no other function has a sealer to give it to, and the key policy
    // refuses every other role anyway.
    const environment = {
      SERVICE_NAME: inputs.serviceName,
      TABLE_NAME: data.table.tableName,
      ISSUER: issuer,
      MAIL_FROM: inputs.senderEmail,
      SES_CONFIGURATION_SET: mail.configurationSet.configurationSetName,
      MAX_CODE_EMAILS_PER_HOUR: String(inputs.maxCodeEmailsPerHour),
      ...(inputs.auditRetentionDays ? { AUDIT_RETENTION_DAYS: String(inputs.auditRetentionDays) } : {}),
      PLATFORM_ORIGINS: inputs.platformOrigins.join(','),
      SIGNING_KEYS: signing.environmentValue(),
      CODE_KEY_SECRET_ARN: codeKey.secret.secretArn,
      LOG_LEVEL: inputs.logLevel,
    };
    const sealingEnvironment = { ...environment, SEALING_KEY_ID: sealing.key.keyArn };
    const targets: GrantTargets = {
      tableArn: data.table.tableArn,
      indexArns: data.indexArns,
      senderIdentityArn: sender.identityArn,
      configurationSetArn: mail.configurationSetArn,
      recipientIdentitiesArn: this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
      senderAddress: sender.address,
      codeKeySecretArn: codeKey.secret.secretArn,
    };

    // One log group for the whole service, not one per access profile: in a shared group Lambda
    // names each stream after its function, and each request's line (shared/http/handler.ts)
    // carries its route and request id, so nothing is lost; one query reads a whole sign-in flow,
    // and the group costs one resource per stack instead of one per profile. The price: any of
    // the service's functions may write any stream of it (a role cannot name its functions'
    // streams: the functions depend on the role).
    const functionLogs = new LogGroup(this, 'FunctionLogs', { retention });
    const roles = new AccessRoles(this, 'Roles', {
      serviceName: inputs.serviceName,
      targets,
      logGroup: functionLogs,
      // The statistics aggregator is no route, but its role is made like theirs, under its own name.
      routes: [...(props.routes ?? routeList), { access: aggregatorAccess }],
    });
    this.accessRoles = roles;

    const functions = new Map<RouteId, RouteFunction>();
    for (const route of props.routes ?? routeList) {
      const constructId = routeConstructId(route.id);
      const fn = new RouteFunction(this, constructId, {
        route,
        serviceName: inputs.serviceName,
        environment: route.access.seal ? sealingEnvironment : environment,
        role: roles.roleFor(route.access),
        logGroup: functionLogs,
        memoryMb: inputs.lambdaMemoryMb,
        tracing: inputs.tracing,
        ...(inputs.reservedConcurrency !== undefined && hasReservedConcurrency(route)
          ? { reservedConcurrency: inputs.reservedConcurrency }
          : {}),
      });
      http.addRoute(constructId, route, fn.function);
      functions.set(route.id, fn);
    }
    this.routeFunctions = functions;
    const aggregator = new StatisticsAggregator(this, 'Statistics', {
      serviceName: inputs.serviceName,
      table: data.table,
      environment,
      role: roles.roleFor(aggregatorAccess),
      logGroup: functionLogs,
      memoryMb: inputs.lambdaMemoryMb,
      tracing: inputs.tracing,
    });
    this.statisticsAggregator = aggregator;

    this.alarms = new Alarms(this, 'Alarms', {
      serviceName: inputs.serviceName,
      api: http.api,
      // Every function of the stack: LambdaFailures counts theirs and no other (lib/alarms.ts).
      functions: [...[...functions.values()].map((fn) => fn.function), aggregator.function],
      streamAggregator: aggregator.function,
      // lib/http-api.ts keeps its access log as a child: a route function that is throttled shows there only.
      accessLogs: http.node.findChild('AccessLogs') as LogGroup,
      ...(inputs.alarmTopicArn ? { alarmTopicArn: inputs.alarmTopicArn } : {}),
      ...(inputs.alarmEmail ? { alarmEmail: inputs.alarmEmail } : {}),
      ...(inputs.dashboard
        ? { dashboard: { table: data.table, indexNames: tableSchema.indexes.map((index) => index.name) } }
        : {}),
    });

    // Only now do all roles exist: the key policies name the roles of the routes that declare them.
    const usingRoles = (uses: (access: RouteAccess) => boolean | undefined) => [
      ...new Set(
        (props.routes ?? routeList)
          .filter((route) => uses(route.access))
          .map((route) => roles.roleFor(route.access)),
      ),
    ];
    const signerRoles = usingRoles((access) => access.sign);
    signing.allow({
      signerRoleArns: signerRoles.map((role) => role.roleArn),
      // A signer reads the public key too: the token's `kid` is its thumbprint.
      publicKeyRoleArns: usingRoles((access) => access.sign || access.publicKeys).map((role) => role.roleArn),
    });

    sealing.allow({
      encryptRoleArns: usingRoles((access) => access.seal === 'encrypt').map((role) => role.roleArn),
      decryptRoleArns: usingRoles((access) => access.seal === 'decrypt').map((role) => role.roleArn),
    });

    new CfnOutput(this, 'ApiUrl', {
      value: inputs.domain ? issuer : http.api.apiEndpoint,
      description: 'The API endpoint',
    });
    new CfnOutput(this, 'IssuerUrl', { value: issuer, description: 'Token issuer (iss)' });
    new CfnOutput(this, 'JwksUrl', {
      value: `${issuer}${routes.jwks.path}`,
      description: 'Public signing keys',
    });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    new CfnOutput(this, 'SigningKeyArns', {
      value: signing.versions.map(({ id, key }) => `${id}=${key.keyArn}`).join(','),
      description: 'Signing key generations (id=ARN)',
    });
    new CfnOutput(this, 'SigningRoleArns', {
      value: signerRoles.map((role) => role.roleArn).join(','),
      description: 'The only principals the key policies let call kms:Sign',
    });
    new CfnOutput(this, 'SealingKeyArn', {
      value: sealing.key.keyArn,
      description: "Seals application owners' OAuth client secrets (encryption context applicationId)",
    });
    new CfnOutput(this, 'CodeKeySecretArn', {
      value: codeKey.secret.secretArn,
      description: 'HMAC key of stored sign-in codes',
    });
    if (customDomain) {
      new CfnOutput(this, 'CustomDomainTarget', {
        value: customDomain.target,
        description: `Point ${inputs.domain} (CNAME) here`,
      });
    }
    if (this.alarms.emailTopic) {
      new CfnOutput(this, 'AlarmTopicArn', {
        value: this.alarms.emailTopic.topicArn,
        description: `Every alarm, mailed to ${inputs.alarmEmail} once the address confirms`,
      });
    }
    new CfnOutput(this, 'MailEventsTopicArn', {
      value: mail.events.topicArn,
      description: 'SES bounce and complaint events: subscribe to be told',
    });
    new CfnOutput(this, 'SesConfigurationSet', { value: mail.configurationSet.configurationSetName });
    if (sender.verifiesDomain && sender.identity) {
      sender.identity.dkimRecords.forEach((record, index) => {
        new CfnOutput(this, `SenderDkimRecord${index + 1}`, {
          value: `${record.name} CNAME ${record.value}`,
          description: 'Publish in DNS so SES verifies the sender domain',
        });
      });
    }
  }
}
