import { Lazy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DEFAULT_THROTTLE, type RouteSpec } from '../shared/routes.ts';
import { RouteIntegration } from './route-integration.ts';

export interface RouteApiProps {
  readonly serviceName: string;
  /**
   * Turns off the `https://<id>.execute-api...` endpoint, for a custom domain: the issuer is the
   * domain then, and a second URL serving the same API would issue tokens under a name clients
   * were never told about.
   */
  readonly disableExecuteApiEndpoint?: boolean;
  /** How long the access log keeps events (`logRetentionDays` context); default a month. */
  readonly logRetention?: RetentionDays;
}

/** One route's entry in the stage's `RouteSettings`. */
interface RouteSetting {
  readonly ThrottlingRateLimit: number;
  readonly ThrottlingBurstLimit: number;
}

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

/**
 * The HTTP API with its `$default` stage: JSON access logs, a stage-wide throttle (`DEFAULT_THROTTLE`)
 * and each route's own `throttle` of the route table in the stage's route settings. Per-caller limits
 * are counters in the table.
 */
export class RouteApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** `METHOD /path` -> the route's throttle, for the routes that declare one. */
  private readonly routeSettings: Record<string, RouteSetting> = {};

  constructor(scope: Construct, id: string, props: RouteApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Api', {
      apiName: props.serviceName,
      description: `${props.serviceName}: passwordless sign-in`,
      createDefaultStage: false,
      disableExecuteApiEndpoint: props.disableExecuteApiEndpoint ?? false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: { rateLimit: DEFAULT_THROTTLE.rate, burstLimit: DEFAULT_THROTTLE.burst },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: accessLogFormat },
    });
    // HttpStage has no property for route settings; the L1 takes them as plain JSON.
    (this.stage.node.defaultChild as CfnStage).routeSettings = Lazy.any({
      produce: () => (Object.keys(this.routeSettings).length > 0 ? this.routeSettings : undefined),
    });
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'This service is the authorizer: each route authenticates its own caller (API key, session token or sign-in code) in the shared handler chain, and some routes (sign-in start, JWKS, discovery) must be public.',
    });
  }

  /** Sends `route` to `fn` (payload format 2.0, which the shared handler chain expects). */
  addRoute(id: string, route: RouteSpec, fn: IFunction): void {
    // Every path is a route key of its own (a route's `alsoAt` too), all sent to one integration,
    // which CDK creates once with its one Lambda permission.
    const paths: [string, ...string[]] = [route.path, ...(route.alsoAt ?? [])];
    const integration = new RouteIntegration(`${id}Integration`, fn, route.method, paths);
    for (const path of paths) {
      const added = this.api.addRoutes({ path, methods: [HttpMethod[route.method]], integration });
      if (route.throttle) {
        this.routeSettings[`${route.method} ${path}`] = {
          ThrottlingRateLimit: route.throttle.rate,
          ThrottlingBurstLimit: route.throttle.burst,
        };
        // API Gateway refuses route settings that name a route it does not have yet.
        for (const httpRoute of added) this.stage.node.addDependency(httpRoute);
      }
    }
  }
}
