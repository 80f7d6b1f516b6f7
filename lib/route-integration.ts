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
  readonly #method: RouteSpec['method'];
  readonly #path: string;
  readonly #permissionId: string;
  #permitted = false;

  /**
   * `paths`: the route's path, then its `alsoAt`. Each further path is a parent of the first (`/x`
   * beside `/x/{proxy+}`), so one permission for the shortest path and what follows it (`/x*`)
   * covers them all; test/infra/stack.test.ts proves it reaches no other route key of the table.
   */
  constructor(
    id: string,
    target: IFunction,
    method: RouteSpec['method'],
    paths: readonly [string, ...string[]],
  ) {
    super(id, target);
    this.#target = target;
    this.#method = method;
    const [path, ...parents] = paths;
    const outside = parents.filter((parent) => !path.startsWith(`${parent}/`));
    if (outside.length > 0) {
      throw new Error(`${method} ${path}: alsoAt ${outside.join(', ')} is not a parent of the route's path`);
    }
    const shortest = parents.reduce((a, b) => (b.length < a.length ? b : a), path);
    this.#path = parents.length === 0 ? path : `${shortest}*`;
    this.#permissionId = `${id}-Permission`;
  }

  protected override completeBind(options: HttpRouteIntegrationBindOptions): void {
    // CDK binds an integration once per route key it serves; its one permission covers them all.
    if (this.#permitted) return;
    this.#permitted = true;
    this.#target.addPermission(this.#permissionId, {
      scope: options.scope,
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: options.route.httpApi.arnForExecuteApi(this.#method, this.#path),
    });
  }
}
