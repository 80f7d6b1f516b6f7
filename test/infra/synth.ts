import { readFileSync } from 'node:fs';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { accessProfileKey } from '../../lib/access-profile.ts';
import { DoorcodeStack } from '../../lib/doorcode-stack.ts';
import type { DoorcodeInputs } from '../../lib/inputs.ts';
import type { RouteId, routeList } from '../../shared/routes.ts';

/** The feature flags `cdk synth` applies, so tests see the template that is deployed. */
const cdkJsonContext: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'),
).context;

export const testInputs: DoorcodeInputs = {
  serviceName: 'doorcode',
  senderEmail: 'no-reply@example.com',
  platformOrigins: ['https://app.example.com'],
  logLevel: 'info',
  senderIdentity: 'create',
  senderVerification: 'address',
  maxCodeEmailsPerHour: 1000,
  logRetentionDays: 30,
  lambdaMemoryMb: 256,
  terminationProtection: true,
  tags: {},
  dashboard: false,
  tracing: false,
};

export interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
}

/**
 * Synthesizes the stack without bundling (fast; bundling has its own test), with lookup helpers.
 * `routes` deploys part of the route table instead of all of it.
 */
export function synthDoorcode(inputs: Partial<DoorcodeInputs> = {}, routes?: typeof routeList) {
  const app = new App({ context: { ...cdkJsonContext, 'aws:cdk:bundling-stacks': [] } });
  const stack = new DoorcodeStack(app, 'DoorcodeStack', {
    // As lib/inputs.ts does: the sender's verification follows the API domain unless it is given.
    inputs: {
      ...testInputs,
      senderVerification: inputs.domain ? 'domain' : 'address',
      ...inputs,
    },
    ...(routes ? { routes } : {}),
  });
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  return {
    app,
    stack,
    template,
    resources,
    logicalId: (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement),
    routeFunction(id: RouteId) {
      const fn = stack.routeFunctions.get(id);
      if (!fn) throw new Error(`no function for route ${id}`);
      return fn;
    },
    /** The logical id of the template's only resource of `type`. */
    onlyResourceOf(type: string): string {
      const ids = Object.keys(template.findResources(type));
      if (ids.length !== 1) throw new Error(`expected one ${type}, found ${ids.length}`);
      return ids[0]!;
    },
  };
}

let defaultSynth: ReturnType<typeof synthDoorcode> | undefined;

/**
 * The default stack's synth, made once per worker and shared by the files that only read it: the
 * infra lane loads its modules once per worker (test/lanes.ts), and a synth takes 3 to 4 s on two
 * cores. A test that changes the app or the environment it synthesizes in calls `synthDoorcode`.
 */
export function synthDefault(): ReturnType<typeof synthDoorcode> {
  defaultSynth ??= synthDoorcode();
  return defaultSynth;
}

export const variablesOf = (fn: Resource) =>
  (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

/** The routes of each access profile (lib/access-profile.ts), in table order. */
export function routesByProfile(routes: typeof routeList): Map<string, Array<(typeof routeList)[number]>> {
  const byProfile = new Map<string, Array<(typeof routeList)[number]>>();
  for (const route of routes) {
    const key = accessProfileKey(route.access);
    byProfile.set(key, [...(byProfile.get(key) ?? []), route]);
  }
  return byProfile;
}
