import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { mcpPost } from '../support/mcp.ts';
import { connect, refreshRequest } from '../support/oauth-token.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { addSignedInMember, createOwnedApplication, manage } from '../support/tenancy.ts';

// docs/security.md "What ends access": once a member is removed, every credential that membership
// gave is refused on the next request: its session on the organization's resources, its OAuth
// grants to the organization's applications, its running impersonations and the invitations it sent.
// The keys it made are the application's, not the member's: the trail names them for the owner.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('removing a member', () => {
  it('refuses every credential the membership gave, at once', async () => {
    // Prepare: an admin who holds one of each.
    const owned = await createOwnedApplication(app);
    const owner = { token: owned.owner.token };
    const admin = await addSignedInMember(app, owned.owner.token, owned.organizationId, 'admin');
    const endUser = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const impersonated = await manage(
      app,
      'POST',
      `/applications/${owned.applicationId}/users/${endUser.body.user.id}/impersonate`,
      { token: admin.token },
      { reason: 'Ticket 9: checking the profile page' },
    );
    expect(impersonated.status, impersonated.text).toBe(201);
    const oauth = await connect(app, { userId: admin.userId, applicationId: owned.applicationId });
    const invitee = await signIn(app);
    const invited = await manage(
      app,
      'POST',
      `/organizations/${owned.organizationId}/members`,
      { token: admin.token },
      { email: invitee.email, role: 'admin' },
    );
    expect(invited.status, invited.text).toBe(202);
    const key = await manage(
      app,
      'POST',
      '/api-keys',
      { token: admin.token },
      { applicationId: owned.applicationId, type: 'secret' },
    );
    expect(key.status, key.text).toBe(201);
    // Each works before the removal.
    const listed = await manage(app, 'GET', `/organizations/${owned.organizationId}/invitations`, owner);
    expect(listed.body.items.map((item: { email: string }) => item.email)).toEqual([invitee.email]);
    expect((await mcpPost(app, owned.applicationId, bearer(oauth.tokens.access_token))).status).toBe(200);
    expect(
      (await app.request('GET', '/auth/session', { headers: bearer(impersonated.body.token) })).status,
    ).toBe(200);

    // Act
    const removed = await manage(
      app,
      'DELETE',
      `/organizations/${owned.organizationId}/members/${admin.userId}`,
      owner,
    );

    // Assess: the session reaches nothing of the organization any more.
    expect(removed.status, removed.text).toBe(204);
    const asAdmin = { token: admin.token };
    expectError(
      await manage(app, 'GET', `/organizations/${owned.organizationId}`, asAdmin),
      404,
      'NOT_FOUND',
    );
    expectError(await manage(app, 'GET', `/applications/${owned.applicationId}`, asAdmin), 404, 'NOT_FOUND');
    expectError(
      await manage(app, 'POST', '/api-keys', asAdmin, { applicationId: owned.applicationId, type: 'secret' }),
      404,
      'NOT_FOUND',
    );
    // The OAuth grant: its access token and its refresh token.
    expect((await mcpPost(app, owned.applicationId, bearer(oauth.tokens.access_token))).status).toBe(401);
    const refreshed = await refreshRequest(app, oauth.tokens.refresh_token);
    expect(refreshed.status, refreshed.text).toBe(400);
    // The impersonation: its token is refused and its profile writes with it.
    const impersonation = bearer(impersonated.body.token);
    expectError(await app.request('GET', '/auth/session', { headers: impersonation }), 401, 'UNAUTHORIZED');
    expectError(
      await app.request('POST', '/auth/update-user', { headers: impersonation, body: { name: 'Mallory' } }),
      401,
      'UNAUTHORIZED',
    );
    // The invitation it sent is void: not listed, and its accept is refused.
    const pending = await manage(app, 'GET', `/organizations/${owned.organizationId}/invitations`, owner);
    expect(pending.body.items).toEqual([]);
    expectError(
      await manage(app, 'POST', `/invitations/${owned.organizationId}/accept`, { token: invitee.token }),
      404,
      'NOT_FOUND',
    );
    // The trail says what happened, and names the key the admin made for the owner to revoke.
    const orgTrail = await manage(
      app,
      'GET',
      `/organizations/${owned.organizationId}/audit?target=${admin.userId}`,
      owner,
    );
    expect(orgTrail.body.items.map((entry: { action: string }) => entry.action)).toContain('member.removed');
    const made = await manage(
      app,
      'GET',
      `/applications/${owned.applicationId}/audit?actor=${admin.userId}&action=apiKey.created`,
      owner,
    );
    expect(made.body.items.map((entry: { target: { id: string } }) => entry.target.id)).toEqual([
      key.body.id,
    ]);
    const ended = await manage(
      app,
      'GET',
      `/applications/${owned.applicationId}/audit?action=impersonation.ended`,
      owner,
    );
    expect(ended.body.items).toMatchObject([
      { cause: 'member-removed', impersonationId: impersonated.body.impersonation.id },
    ]);
  });
});
