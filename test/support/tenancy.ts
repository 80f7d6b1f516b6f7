import type { AuditRequest } from '../../shared/tenancy/audit.ts';
import type { TestApp } from './app.ts';
import { freshIp, type TestResponse } from './http-client.ts';
import { bearer, newEmail, signIn } from './sign-in.ts';

/** Fails with the answer's body when its status is not `status`. */
function expectStatus(response: TestResponse, status: number, what: string): TestResponse {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${response.text}`);
  return response;
}

/** A management call as a platform session (Bearer) or a key. */
export async function manage(
  app: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  credential: { token?: string; apiKey?: string },
  body?: unknown,
): Promise<TestResponse> {
  const headers = {
    ...(credential.token ? bearer(credential.token) : {}),
    ...(credential.apiKey ? { 'x-api-key': credential.apiKey } : {}),
  };
  return app.request(method, path, { headers, ip: freshIp(), ...(body === undefined ? {} : { body }) });
}

/**
 * The agent bootstrap (docs/quickstart-agent.md) through the API: a platform owner signed in, its
 * organization, an application and both keys.
 */
export async function createOwnedApplication(app: TestApp, name = 'Acme Notes', ownerEmail = newEmail()) {
  const owner = await signIn(app, ownerEmail);
  const token = owner.token;
  const org = expectStatus(
    await manage(app, 'POST', '/organizations', { token }, { name: 'Acme' }),
    201,
    'create organization',
  );
  const organizationId = org.body.id as string;
  const created = expectStatus(
    await manage(app, 'POST', `/application/${organizationId}`, { token }, { name }),
    201,
    'create application',
  );
  const applicationId = created.body.id as string;
  const keyOf = async (type: 'public' | 'secret') =>
    expectStatus(
      await manage(app, 'POST', '/api-keys', { token }, { applicationId, type }),
      201,
      `create ${type} key`,
    ).body.key as string;
  return {
    owner: { token, email: owner.email, userId: owner.body.user.id as string },
    organizationId,
    applicationId,
    publicKey: await keyOf('public'),
    secretKey: await keyOf('secret'),
  };
}

/** A platform account signed in here, invited to the organization with `role`, that accepted. */
export async function addSignedInMember(
  app: TestApp,
  ownerToken: string,
  organizationId: string,
  role: 'owner' | 'admin' | 'member',
) {
  const member = await signIn(app);
  expectStatus(
    await manage(
      app,
      'POST',
      `/organizations/${organizationId}/members`,
      { token: ownerToken },
      { email: member.email, role },
    ),
    202,
    'invite member',
  );
  expectStatus(
    await manage(app, 'POST', `/invitations/${organizationId}/accept`, { token: member.token }),
    200,
    'accept invitation',
  );
  return { token: member.token, email: member.email, userId: member.body.user.id as string };
}

/** Who owns each key `createTestApplication` made, so a test can revoke it through the API. */
const owners = new Map<string, { token: string; applicationId: string }>();

/**
 * An application with a public and a secret key, made through the API (the agent bootstrap of
 * docs/quickstart-agent.md, by a fresh platform owner) and configured with `configuration` through
 * its route.
 */
export async function createTestApplication(
  app: TestApp,
  configuration: { authentication?: { syntheticEmailDomain?: string } } = {},
  name = 'Acme Notes',
) {
  const owned = await createOwnedApplication(app, name);
  if (configuration.authentication) {
    expectStatus(
      await manage(
        app,
        'PATCH',
        `/applications/${owned.applicationId}/configuration`,
        { apiKey: owned.secretKey },
        configuration,
      ),
      200,
      'configure application',
    );
  }
  for (const key of [owned.publicKey, owned.secretKey]) {
    owners.set(key, { token: owned.owner.token, applicationId: owned.applicationId });
  }
  return {
    application: { id: owned.applicationId, name, organizationId: owned.organizationId },
    owner: owned.owner,
    publicKey: owned.publicKey,
    secretKey: owned.secretKey,
  };
}

/** Revokes a key `createTestApplication` made, as its owner, through the API. */
export async function revokeApiKey(app: TestApp, key: string): Promise<void> {
  const owner = owners.get(key);
  if (!owner) throw new Error('revokeApiKey revokes keys of createTestApplication only');
  const path = `/applications/${owner.applicationId}/api-keys`;
  const listed = expectStatus(await manage(app, 'GET', path, { token: owner.token }), 200, 'list keys');
  const type = key.startsWith('pu_') ? 'public' : 'secret';
  const entry = (listed.body.items as Array<{ id: string; type: string }>).find((item) => item.type === type);
  if (!entry) throw new Error(`no ${type} key listed`);
  expectStatus(await manage(app, 'DELETE', `${path}/${entry.id}`, { token: owner.token }), 200, 'revoke key');
}

/** An application with a synthetic test domain and a pending code for one of its addresses. */
export async function startSynthetic(app: TestApp, domain = 'synthetic.test') {
  const { secretKey } = await createTestApplication(app, {
    authentication: { syntheticEmailDomain: domain },
  });
  const email = newEmail(domain);
  const start = await app.request('POST', '/auth/code/start', {
    body: { email },
    headers: { 'x-api-key': secretKey },
    ip: freshIp(),
  });
  if (start.status !== 200) throw new Error(`start answered ${start.status}: ${start.text}`);
  return { secretKey, email };
}

/** Who a fixture's direct domain call names in its audit entry: the service, from loopback. */
export const fixtureAudit: AuditRequest = {
  actor: { kind: 'service' },
  ip: '127.0.0.1',
  userAgent: 'test fixture',
};
