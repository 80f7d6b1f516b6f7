import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  NodejsFunction,
  type NodejsFunctionProps,
  OutputFormat,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  type AccessProfile,
  type AuthMode,
  FUNCTION_TIMEOUT_SECONDS,
  type RouteId,
  type RouteSpec,
} from '../shared/routes.ts';
import { absentAdapterArgs, bundling } from './bundling.ts';
import { DEFAULT_LAMBDA_MEMORY_MB } from './inputs.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Every route function's runtime; `@types/node` follows its major (test/infra/dependency-versions.test.ts). */
export const FUNCTION_RUNTIME = Runtime.NODEJS_24_X;

/** lib/bundling.ts's esbuild options, in NodejsFunction's vocabulary (it always targets platform node). */
const functionBundling: BundlingOptions = {
  format: bundling.format === 'esm' ? OutputFormat.ESM : OutputFormat.CJS,
  target: bundling.target,
  minify: bundling.minify,
  sourceMap: bundling.sourcemap,
  bundleAwsSDK: bundling.bundleAwsSdk,
  mainFields: [...bundling.mainFields],
};

export interface RouteFunctionProps {
  readonly route: RouteSpec & { readonly id: RouteId };
  readonly serviceName: string;
  readonly environment: Readonly<Record<string, string>>;
  /** The role of the route's access profile (lib/access-roles.ts), shared with the routes that declare the same access. */
  readonly role: IRole;
  /** The log group the service's functions share; the role must be allowed to write to it. */
  readonly logGroup: ILogGroup;
  /** The function's memory in MB (`lambdaMemoryMb` context); default `DEFAULT_LAMBDA_MEMORY_MB`. */
  readonly memoryMb?: number;
  /** Reserved concurrent executions (`reservedConcurrency` context, sign-in routes only); absent: none. */
  readonly reservedConcurrency?: number;
  /** Active AWS X-Ray tracing (`tracing` context); absent or false: none. */
  readonly tracing?: boolean;
}

/**
 * What every function of the service is, route or not (the statistics aggregator): its bundle of
 * `entry` with the adapters `access` declares, runtime, timeout, shared role and log group.
 */
export function serviceFunctionProps(options: {
  description: string;
  entry: string;
  access: AccessProfile;
  auth: AuthMode;
  role: IRole;
  logGroup: ILogGroup;
  memoryMb?: number;
  tracing?: boolean;
}): NodejsFunctionProps {
  return {
    description: options.description,
    entry: join(repoRoot, options.entry),
    handler: 'handler',
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    runtime: FUNCTION_RUNTIME,
    architecture: Architecture.ARM_64,
    memorySize: options.memoryMb ?? DEFAULT_LAMBDA_MEMORY_MB,
    timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
    role: options.role,
    // A shared log group keeps the functions apart: Lambda names each stream
    // `YYYY/MM/DD/<function name>[<version>]<environment id>` in a custom log group.
    logGroup: options.logGroup,
    loggingFormat: LoggingFormat.JSON,
    // shared/log.ts writes JSON lines with a `level` that Lambda's JSON filter reads; DEBUG lets
    // through every level it writes, so LOG_LEVEL stays the one switch.
    applicationLogLevelV2: ApplicationLogLevel.DEBUG,
    // INFO keeps the platform.report line of each invocation, whose status the LambdaFailures
    // alarm counts (lib/alarms.ts).
    systemLogLevelV2: SystemLogLevel.INFO,
    ...(options.tracing ? { tracing: Tracing.ACTIVE } : {}),
    bundling: {
      ...functionBundling,
      sourcesContent: bundling.sourcesContent,
      esbuildArgs: absentAdapterArgs(options.access, options.auth),
    },
  };
}

/** One route's Lambda function. Its role and log group are shared (docs/deploy.md, "What the stack creates"), so a route costs no IAM or log resource. */
export class RouteFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: IRole;
  readonly logGroup: ILogGroup;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;
    this.role = props.role;
    this.logGroup = props.logGroup;

    this.function = new NodejsFunction(this, 'Function', {
      ...serviceFunctionProps({
        description: `${props.serviceName} ${route.method} ${route.path}`,
        entry: route.entry,
        access: route.access,
        auth: route.auth,
        role: this.role,
        logGroup: this.logGroup,
        ...(props.memoryMb === undefined ? {} : { memoryMb: props.memoryMb }),
        ...(props.tracing === undefined ? {} : { tracing: props.tracing }),
      }),
      ...(props.reservedConcurrency === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrency }),
      // No --enable-source-maps: it parses the whole map at every cold start (bench/bundles.ts); the
      // map stays beside the bundle and shared/log.ts reads it only to log an unexpected error.
      environment: { ...props.environment },
    });
    if (props.tracing) {
      // Lambda adds the X-Ray statement to the shared role's default policy; X-Ray has no resource
      // type, so it names `*` (https://docs.aws.amazon.com/xray/latest/devguide/security_iam_service-with-iam.html).
      const xrayPolicy = this.role.node.tryFindChild('DefaultPolicy');
      if (xrayPolicy) {
        Validations.of(xrayPolicy).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'xray:PutTraceSegments and xray:PutTelemetryRecords, which active tracing (-c tracing=true) needs, take no resource in IAM: they can only be granted on *.',
        });
      }
    }
  }
}
