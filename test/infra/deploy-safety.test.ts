import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DoorcodeStack } from '../../lib/doorcode-stack.ts';
import { InputError } from '../../lib/inputs.ts';
import { REGIONS_WITHOUT_SES_V2 } from '../../lib/regions.ts';
import { routeList } from '../../shared/routes.ts';
import { type Resource, synthDefault, synthDoorcode, testInputs } from './synth.ts';

const cdkJsonContext: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'),
).context;

/** Builds the stack (one route: the check comes first) in `region`, as `cdk synth` with an env would. */
const build = (region: string) =>
  new DoorcodeStack(
    new App({ context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] } }),
    'DoorcodeStack',
    {
      inputs: testInputs,
      routes: routeList.slice(0, 1),
      env: { account: '123456789012', region },
    },
  );

describe('the Region (docs/deploy.md "One Region")', () => {
  it.each(REGIONS_WITHOUT_SES_V2)(
    'refuses %s, which has no SES v2 in CloudFormation, naming it',
    (region) => {
      expect(() => build(region)).toThrow(InputError);
      expect(() => build(region)).toThrow(new RegExp(`^Region ${region} has no Amazon SES v2`));
    },
  );

  it('lists the Regions the brief names and those cfn-lint E3006 adds', () => {
    expect(REGIONS_WITHOUT_SES_V2).toEqual(
      expect.arrayContaining([
        'ap-east-1',
        'ap-southeast-4',
        'ap-southeast-7',
        'eu-south-2',
        'mx-central-1',
        'cn-north-1',
        'cn-northwest-1',
      ]),
    );
  });

  it("makes bin/app.ts refuse the CLI's default Region (where cdk deploys the stack) when it has no SES v2", () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: {
        ...process.env,
        CDK_DEFAULT_REGION: 'ap-east-1',
        CDK_CONTEXT_JSON: JSON.stringify({ senderEmail: 'no-reply@example.com' }),
      },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Region ap-east-1 has no Amazon SES v2');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('builds in a Region with SES v2, and without any Region (a token, checked at deploy)', () => {
    expect(() => build('us-east-1')).not.toThrow();
    expect(() => build('eu-west-1')).not.toThrow();
    expect(() => synthDoorcode({}, routeList.slice(0, 1))).not.toThrow();
  });
});

describe('tracing (-c tracing=true)', () => {
  const functionsOf = (synth: ReturnType<typeof synthDoorcode>) =>
    Object.values(synth.template.findResources('AWS::Lambda::Function')) as Resource[];

  it('is off by default: no TracingConfig and no X-Ray grant', () => {
    const defaults = synthDefault();
    for (const fn of functionsOf(defaults)) expect(fn.Properties.TracingConfig).toBeUndefined();
    expect(JSON.stringify(defaults.template.toJSON())).not.toContain('xray:');
  });

  it('turns on active tracing for every function and lets each role write its traces', () => {
    const traced = synthDoorcode({ tracing: true });
    const functions = functionsOf(traced);
    expect(functions.length).toBeGreaterThanOrEqual(routeList.length);
    for (const fn of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    const policies = Object.values(traced.template.findResources('AWS::IAM::Policy')) as Resource[];
    const roles = new Set(functions.map((fn) => JSON.stringify(fn.Properties.Role)));
    expect(policies).toHaveLength(roles.size);
    // The statement X-Ray needs, in the default policy Lambda adds to each role (beside what else a
    // function adds there: the statistics aggregator's stream reads).
    // CDK merges statements on one resource, so the X-Ray actions may share theirs.
    for (const policy of policies) {
      const statements = (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] })
        .Statement;
      expect(
        statements.some(
          (statement) =>
            statement.Effect === 'Allow' &&
            statement.Resource === '*' &&
            ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'].every((action) =>
              [statement.Action].flat().includes(action),
            ),
        ),
      ).toBe(true);
    }
  });
});
