import type { Template } from 'aws-cdk-lib/assertions';

type Json = unknown;

/** One IAM statement, with Action and Resource always arrays. */
export interface Statement {
  readonly policy: string;
  readonly effect: string;
  readonly actions: string[];
  readonly resources: Json[];
  readonly condition?: Record<string, Record<string, Json>>;
}

const arrayOf = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
}

interface PolicyDocument {
  Statement: Array<{
    Effect: string;
    Action?: string | string[];
    Resource?: Json;
    Condition?: Record<string, Record<string, Json>>;
  }>;
}

const statementsOf = (policy: string, document: PolicyDocument): Statement[] =>
  document.Statement.map((s) => ({
    policy,
    effect: s.Effect,
    actions: arrayOf(s.Action),
    resources: arrayOf(s.Resource as Json | Json[]),
    ...(s.Condition ? { condition: s.Condition } : {}),
  }));

/** Every identity-based statement in the template: policies, managed policies and role inline policies. */
export function allIdentityStatements(template: Template): Statement[] {
  const resources = template.toJSON().Resources as Record<string, Resource>;
  return Object.entries(resources).flatMap(([id, resource]) => {
    const props = resource.Properties ?? {};
    if (resource.Type === 'AWS::IAM::Policy' || resource.Type === 'AWS::IAM::ManagedPolicy') {
      return statementsOf(id, props.PolicyDocument as PolicyDocument);
    }
    if (resource.Type === 'AWS::IAM::Role') {
      const inline = arrayOf(props.Policies as Array<{ PolicyDocument: PolicyDocument }> | undefined);
      return inline.flatMap((p) => statementsOf(id, p.PolicyDocument));
    }
    return [];
  });
}

/** The statements that apply to the role with logical id `roleId`. */
export function roleStatements(template: Template, roleId: string): Statement[] {
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const ref = JSON.stringify({ Ref: roleId });
  return Object.entries(resources).flatMap(([id, resource]) => {
    const props = resource.Properties ?? {};
    const attached =
      (resource.Type === 'AWS::IAM::Policy' || resource.Type === 'AWS::IAM::ManagedPolicy') &&
      arrayOf(props.Roles as Json[] | undefined).some((role) => JSON.stringify(role) === ref);
    if (attached) return statementsOf(id, props.PolicyDocument as PolicyDocument);
    if (id === roleId) {
      const inline = arrayOf(props.Policies as Array<{ PolicyDocument: PolicyDocument }> | undefined);
      return inline.flatMap((p) => statementsOf(id, p.PolicyDocument));
    }
    return [];
  });
}

/** True when `resource` (a CloudFormation value) refers to the logical id `id`. */
export const refersTo = (resource: Json, id: string): boolean => JSON.stringify(resource).includes(`"${id}"`);
