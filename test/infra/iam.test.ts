import type { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { accessStatements } from '../../lib/grants.ts';
import { type RouteAccess, routeList } from '../../shared/routes.ts';
import { allIdentityStatements, refersTo, roleStatements, type Statement } from './policies.ts';
import { routesByProfile, synthDefault, testInputs } from './synth.ts';

const { stack, template, resources, logicalId, routeFunction, onlyResourceOf } = synthDefault();
const tableId = onlyResourceOf('AWS::DynamoDB::Table');
const configurationSetId = onlyResourceOf('AWS::SES::ConfigurationSet');
const secretId = onlyResourceOf('AWS::SecretsManager::Secret');

const READ = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query'];
const WRITE = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];

/** What a route may do, read off its declared access (shared/routes.ts) and nothing else. */
function expectedActions(access: RouteAccess): string[] {
  return [
    'logs:CreateLogStream',
    'logs:PutLogEvents',
    ...(access.table ? READ : []),
    ...(access.table === 'readwrite' ? WRITE : []),
    // KMS is granted by the signing keys' own policies (lib/signing-key.ts), never by a role.
    ...(access.mail ? ['ses:GetSuppressedDestination', 'ses:SendEmail'] : []),
    ...(access.codeKey ? ['secretsmanager:GetSecretValue'] : []),
  ].sort();
}

/** One line per (action, resource, condition) an allow statement grants: comparable whatever the merging. */
const grantsOf = (statements: ReadonlyArray<Pick<Statement, 'actions' | 'resources' | 'condition'>>) =>
  statements
    .flatMap((s) =>
      s.actions.flatMap((action) =>
        s.resources.map((resource) => `${action} ${JSON.stringify(resource)} ${JSON.stringify(s.condition)}`),
      ),
    )
    .sort();

/** A PolicyStatement as the template renders it. */
function rendered(statement: PolicyStatement): Pick<Statement, 'actions' | 'resources' | 'condition'> {
  const json = stack.resolve(statement.toStatementJson()) as {
    Action: string | string[];
    Resource: unknown;
    Condition?: Statement['condition'];
  };
  return {
    actions: [json.Action].flat(),
    resources: [json.Resource].flat(),
    condition: json.Condition,
  };
}

const roleIdOf = (routeId: (typeof routeList)[number]['id']) => {
  const role = resources[logicalId(routeFunction(routeId).function)]!.Properties.Role as {
    'Fn::GetAtt': [string, string];
  };
  return role['Fn::GetAtt'][0];
};

describe('IAM: one role per access profile', () => {
  const profiles = routesByProfile(routeList);

  it('runs every function of a profile with the same role, and no two profiles with one role', () => {
    const roleOfProfile = new Map(
      [...profiles].map(([key, members]) => {
        const roleIds = new Set(members.map((route) => roleIdOf(route.id)));
        expect(roleIds.size, `profile "${key}"`).toBe(1);
        return [key, [...roleIds][0]!];
      }),
    );
    expect(new Set(roleOfProfile.values()).size).toBe(profiles.size);
    // And the statistics aggregator's, a role of its own (shared/route-table/statistics-aggregator.ts).
    expect([...roleOfProfile.values()]).not.toContain(logicalId(stack.statisticsAggregator.function.role!));
    template.resourceCountIs('AWS::IAM::Role', profiles.size + 1);
  });

  it.each([...profiles.keys()])(
    'grants profile "%s" its logs and exactly what accessStatements derives',
    (key) => {
      const [route] = profiles.get(key)!;
      const roleId = roleIdOf(route!.id);
      const logs = {
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [{ 'Fn::GetAtt': [logicalId(stack.accessRoles.logGroup), 'Arn'] }],
      };
      const items = stack.accessRoles.itemsFor(route!.access);
      const statements = accessStatements(route!.access, stack.accessRoles.targets, items);
      const expected = [logs, ...statements.map(rendered)];
      expect(grantsOf(roleStatements(template, roleId))).toEqual(grantsOf(expected));
      expect(resources[roleId]!.Properties.Description).toContain(key === '' ? 'none' : key);
    },
  );
});

describe('IAM: each function may do exactly what its route declares', () => {
  it.each(routeList)('$id: actions match access $access', (route) => {
    const fn = routeFunction(route.id);
    const statements = roleStatements(template, logicalId(fn.role));
    const granted = [...new Set(statements.flatMap((s) => s.actions))].sort();
    expect(granted).toEqual(expectedActions(route.access));
    expect(statements.every((s) => s.effect === 'Allow')).toBe(true);
  });

  it.each(routeList)('$id: each action is scoped to its own resource', (route) => {
    const fn = routeFunction(route.id);
    const owner: Record<string, string> = {
      logs: logicalId(fn.logGroup),
      dynamodb: tableId,
      ses: configurationSetId,
      secretsmanager: secretId,
    };
    for (const statement of roleStatements(template, logicalId(fn.role))) {
      const services = new Set(statement.actions.map((action) => action.split(':')[0]!));
      expect(services.size).toBe(1);
      const [service] = [...services];
      expect(statement.resources.length).toBeGreaterThan(0);
      for (const resource of statement.resources) {
        // The one exception: SES sandbox recipients (identity/*), pinned by the ses:FromAddress condition.
        const sandboxRecipients = service === 'ses' && JSON.stringify(resource).includes(':identity/*');
        // The sender identity is named, not referenced: it may be one the stack does not own (-c senderIdentity=existing).
        const sender =
          service === 'ses' && JSON.stringify(resource).includes(`:identity/${testInputs.senderEmail}`);
        // The account's suppression list has no resource type: GetSuppressedDestination alone, on *.
        const suppressionList = resource === '*';
        if (sandboxRecipients || sender)
          expect(statement.condition).toHaveProperty(['StringEquals', 'ses:FromAddress']);
        else if (suppressionList) expect(statement.actions).toEqual(['ses:GetSuppressedDestination']);
        else
          expect(refersTo(resource, owner[service!]!), `${route.id}: ${JSON.stringify(resource)}`).toBe(true);
      }
    }
  });

  it.each(routeList)('$id: the role has no managed policy', (route) => {
    expect(resources[logicalId(routeFunction(route.id).role)]!.Properties.ManagedPolicyArns).toBeUndefined();
  });

  it('publishes the JWKS with no identity grant beside its logs (the key policy lets it read public keys)', () => {
    const statements = roleStatements(template, logicalId(routeFunction('jwks').role));
    expect(statements.flatMap((s) => s.actions).filter((a) => !a.startsWith('logs:'))).toEqual([]);
  });

  it('lets /status read the table but never write it', () => {
    const actions = roleStatements(template, logicalId(routeFunction('status').role)).flatMap(
      (s) => s.actions,
    );
    expect([...new Set(actions.filter((a) => a.startsWith('dynamodb:')))].sort()).toEqual(READ);
    expect(actions.some((a) => WRITE.includes(a))).toBe(false);
  });

  it('grants no KMS action in any identity policy: only the key policies do (test/infra/key-policy.test.ts)', () => {
    expect(
      allIdentityStatements(template).filter((s) => s.actions.some((a) => a.startsWith('kms:'))),
    ).toEqual([]);
  });

  it('lets only the roles of routes that hash codes, derive refresh tokens or sign the recent-accounts cookie read the code-hash secret', () => {
    const readers = Object.keys(template.findResources('AWS::IAM::Role')).filter((roleId) =>
      roleStatements(template, roleId).some((s) => s.actions.some((a) => a.startsWith('secretsmanager:'))),
    );
    const codeRoutes = routeList.filter((route) => route.access.codeKey);
    // The token endpoint derives a refresh token's successor as an HMAC under the same key; the OAuth
    // sign-in bridge starts and verifies codes as the API does; the recent-accounts routes sign
    // and check their cookie with it, and so does the social callback.
    expect(codeRoutes.map((route) => route.id).sort()).toEqual([
      'codeApprove',
      'codeStart',
      'codeVerify',
      'forgetRecentAccount',
      'forgetRecentAccounts',
      'listRecentAccounts',
      'oauthSignInForget',
      'oauthSignInPage',
      'oauthSignInStart',
      'oauthSignInVerify',
      'oauthToken',
      'socialCallback',
      'socialForget',
      'socialPage',
    ]);
    expect(readers.sort()).toEqual([...new Set(codeRoutes.map((route) => roleIdOf(route.id)))].sort());
    // No other identity policy and no resource policy opens the secret.
    const elsewhere = allIdentityStatements(template).filter(
      (s) =>
        s.actions.some((a) => a.startsWith('secretsmanager:')) &&
        s.actions.join() !== 'secretsmanager:GetSecretValue',
    );
    expect(elsewhere).toEqual([]);
    template.resourceCountIs('AWS::SecretsManager::ResourcePolicy', 0);
  });

  it('grants no wildcard action in any identity policy', () => {
    const actions = allIdentityStatements(template).flatMap((s) => s.actions);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });
});
