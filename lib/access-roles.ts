import { Validations } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { AccessProfile, RouteAccess } from '../shared/routes.ts';
import type { ItemFamily } from '../shared/store/keys.ts';
import { accessProfileConstructId, accessProfileKey } from './access-profile.ts';
import { accessStatements, type GrantTargets } from './grants.ts';

export interface AccessRolesProps {
  readonly serviceName: string;
  readonly targets: GrantTargets;
  /** The one log group the functions write to; each role may write there and nowhere else. */
  readonly logGroup: ILogGroup;
  /** The routes deployed: a profile's role may touch the item families (`access.items`) of all its routes. */
  readonly routes: ReadonlyArray<{ readonly access: RouteAccess }>;
}

/**
 * One execution role per access profile (docs/security.md, "Where it cannot be narrowed, and why": functions
 * whose routes declare the same access share one role), created when the first route of the profile asks for
 * it. The statements sit inline in the role: one resource per profile instead of a role and a policy, with
 * the same 10,240-character budget, since an AWS::IAM::Policy is an inline role policy too.
 */
export class AccessRoles extends Construct {
  readonly targets: GrantTargets;
  readonly logGroup: ILogGroup;
  readonly #serviceName: string;
  /** By profile key (`table=readwrite,sign`). */
  readonly #roles = new Map<string, Role>();
  /** By profile key: the union of the item families its routes declare. */
  readonly #items = new Map<string, ItemFamily[]>();

  constructor(scope: Construct, id: string, props: AccessRolesProps) {
    super(scope, id);
    this.targets = props.targets;
    this.logGroup = props.logGroup;
    this.#serviceName = props.serviceName;
    for (const route of props.routes) {
      const key = accessProfileKey(route.access);
      this.#items.set(
        key,
        [...new Set([...(this.#items.get(key) ?? []), ...(route.access.items ?? [])])].sort(),
      );
    }
  }

  /** The item families the role of `access` may touch: those of every deployed route of the profile. */
  itemsFor(access: AccessProfile): readonly ItemFamily[] {
    return this.#items.get(accessProfileKey(access)) ?? [];
  }

  /** The role of every function whose route declares `access`. */
  roleFor(access: AccessProfile): Role {
    const key = accessProfileKey(access);
    const existing = this.#roles.get(key);
    if (existing) return existing;

    // Our own role instead of AWSLambdaBasicExecutionRole: it writes only to the functions' log group.
    const logs = new PolicyStatement({
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [this.logGroup.logGroupArn],
    });
    const role = new Role(this, accessProfileConstructId(key), {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${this.#serviceName} functions whose routes declare access: ${key === '' ? 'none' : key}`,
      inlinePolicies: {
        access: new PolicyDocument({
          statements: [logs, ...accessStatements(access, this.targets, this.itemsFor(access))],
        }),
      },
    });
    if (access.mail) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
        reason:
          'In the SES sandbox, SendEmail is authorized against each verified recipient identity as well as the sender; recipients are arbitrary addresses, so the resource is identity/* and the ses:FromAddress condition pins the sender.',
      });
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'ses:GetSuppressedDestination reads the account-level suppression list, which has no resource type in IAM: it can only be granted on *. It is the only action of the role on *, and it reads, never writes.',
      });
    }
    this.#roles.set(key, role);
    return role;
  }
}
