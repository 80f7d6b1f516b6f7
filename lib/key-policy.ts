import { Aws } from 'aws-cdk-lib';
import { AccountRootPrincipal, AnyPrincipal, Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';

type Conditions = Record<string, Record<string, unknown>>;

/**
 * A key-policy Allow of `action` for `roles` of this account. The roles are named by condition, not
 * as principals: KMS checks that a named principal exists when the policy is written, and a role
 * created seconds earlier in the same deploy may not be visible to it yet (the deploy then fails,
 * not retried); a principal is also pinned to the role's unique id, so a recreated role would
 * silently lose access. `aws:PrincipalArn` is compared at each request. `conditions` add the
 * action's own limits (an algorithm, an encryption context).
 */
export function allowRoles(
  sid: string,
  action: string,
  roles: readonly string[],
  conditions: Conditions = {},
) {
  return new PolicyStatement({
    sid,
    principals: [new AnyPrincipal()],
    actions: [action],
    resources: ['*'],
    conditions: {
      ...conditions,
      StringEquals: { ...conditions.StringEquals, 'aws:PrincipalAccount': Aws.ACCOUNT_ID },
      ArnEquals: { 'aws:PrincipalArn': [...roles] },
    },
  });
}

/**
 * The explicit Deny of `action` to every principal but `roles` (all of them when there are none):
 * it holds whatever any IAM policy, grant or later statement says. `unless` adds conditions that
 * must all hold too for the Deny to apply (a request they exempt still needs an Allow).
 */
export const denyAllBut = (
  sid: string,
  action: string,
  roles: readonly string[],
  unless: Conditions = {},
) => {
  const conditions: Conditions = {
    ...(roles.length > 0 ? { ArnNotEquals: { 'aws:PrincipalArn': [...roles] } } : {}),
    ...unless,
  };
  return new PolicyStatement({
    sid,
    effect: Effect.DENY,
    principals: [new AnyPrincipal()],
    actions: [action],
    resources: ['*'],
    ...(Object.keys(conditions).length > 0 ? { conditions } : {}),
  });
};

/**
 * The account root (so the account's administrators' IAM policies apply) may take `actions`, a list
 * of administrative actions written out one by one: no wildcard, so never a use of the key.
 */
export const administerWithoutUse = (actions: readonly string[]) =>
  new PolicyStatement({
    sid: 'AdministerWithoutUse',
    principals: [new AccountRootPrincipal()],
    actions: [...actions],
    resources: ['*'],
  });
