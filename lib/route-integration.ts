import type { HttpRouteIntegrationBindOptions } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { RouteSpec } from '../shared/routes.ts';

/**
 * A route's Lambda proxy integration (payload 2.0). Its one `AWS::Lambda::Permission` (the
 * function's resource policy is what lets API Gateway invoke it) names the route's method as well
 * as its path, where CDK's default allows any method on the path: the function answers only the
 * route it was built for. The stage stays any: the API has only `$default`. The path is the route
 * key's own (`/{proxy+}` as written), as CDK's default permission writes it.
 */
export class RouteIntegration extends HttpLambdaIntegration {
  readonly #target: IFunction;
  readonly #route: RouteSpec;
  readonly #permissionId: string;

  constructor(id: string, target: IFunction, route: RouteSpec) {
    super(id, target);
    this.#target = target;
    this.#route = route;
    this.#permissionId = `${id}-Permission`;
  }

  protected override completeBind(options: HttpRouteIntegrationBindOptions): void {
    this.#target.addPermission(this.#permissionId, {
      scope: options.scope,
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: options.route.httpApi.arnForExecuteApi(this.#route.method, this.#route.path),
    });
  }
}
