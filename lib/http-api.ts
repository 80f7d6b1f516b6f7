import { Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteSpec } from '../shared/routes.ts';
import { RouteIntegration } from './route-integration.ts';

export interface RouteApiProps {
  readonly serviceName: string;
}

/** Stage-wide limits; per-client limits are counters in the table (DESIGN §3). */
const throttle = { rateLimit: 100, burstLimit: 200 };

// One JSON object per request. No query string, header or body: they may carry codes or tokens.
const accessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    ip: '$context.identity.sourceIp',
    method: '$context.httpMethod',
    path: '$context.path',
    routeKey: '$context.routeKey',
    status: '$context.status',
    latency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    userAgent: '$context.identity.userAgent',
  }),
);

/** The HTTP API with its `$default` stage: throttling and JSON access logs. */
export class RouteApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;

  constructor(scope: Construct, id: string, props: RouteApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      apiName: props.serviceName,
      description: `${props.serviceName}: passwordless sign-in`,
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat },
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'This service is the authorizer: each route authenticates its own caller (API key, session token or sign-in code) in the shared handler chain, and some routes (sign-in start, JWKS, discovery) must be public.',
    });
  }

  /** Sends `route` to `fn` (payload format 2.0, which the shared handler chain expects). */
  addRoute(id: string, route: RouteSpec, fn: IFunction): void {
    this.api.addRoutes({
      path: route.path,
      methods: [HttpMethod[route.method]],
      integration: new RouteIntegration(`${id}Integration`, fn, route),
    });
  }
}
