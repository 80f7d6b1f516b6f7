import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import { type PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteId, RouteSpec } from '../shared/routes.ts';
import { absentAdapterArgs, bundling } from './bundling.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** lib/bundling.ts's esbuild options, in NodejsFunction's vocabulary (it always targets platform node). */
export const functionBundling: BundlingOptions = {
  format: bundling.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
  target: bundling.target,
  minify: bundling.minify,
  sourceMap: bundling.sourcemap,
  bundleAwsSDK: bundling.bundleAwsSdk,
  banner: bundling.banner,
  mainFields: [...bundling.mainFields],
};

export interface RouteFunctionProps {
  readonly route: RouteSpec & { readonly id: RouteId };
  readonly serviceName: string;
  readonly environment: Readonly<Record<string, string>>;
  /** Everything the function may do in AWS besides writing its own logs. */
  readonly statements: readonly PolicyStatement[];
}

/** One route's Lambda function, with its own role and log group. */
export class RouteFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;
    this.logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    // Our own role instead of AWSLambdaBasicExecutionRole: logs only to this function's group.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${props.serviceName} ${route.method} ${route.path}`,
    });
    this.logGroup.grant(this.role, 'logs:CreateLogStream', 'logs:PutLogEvents');
    for (const statement of props.statements) this.role.addToPrincipalPolicy(statement);

    this.function = new NodejsFunction(this, 'Function', {
      description: `${props.serviceName} ${route.method} ${route.path}`,
      entry: join(repoRoot, route.entry),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      bundling: {
        ...functionBundling,
        sourcesContent: bundling.sourcesContent,
        esbuildArgs: absentAdapterArgs(route.access),
      },
      // No --enable-source-maps: it parses the whole map at every cold start (bench/bundles.ts); the
      // map stays beside the bundle and shared/log.ts reads it only to log an unexpected error.
      environment: { ...props.environment },
    });
  }
}
