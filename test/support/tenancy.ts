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
 * The bootstrap of SPEC §1.4 through the API: a platform owner signed in, its organization, an
 * application and both keys.
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
