import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { type Between, storeLandingBetween } from '../support/store.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// Deleting a user deletes an organization it was the only member of, decided from a read of the
// organizations' member counts. A member who joins after that read keeps the organization: its
// delete is conditioned on the member count read, and otherwise the user only leaves.

/** Another request landing between a request's read and its write (test/support/store.ts). */
const armed: { next: Between | null } = { next: null };

/** The delete's read of the user's organizations: a BatchGetItem of organization items only. */
const readsOrganizations = (command: string, input: Record<string, any>): boolean => {
  const requested = Object.values(input.RequestItems ?? {}) as Array<{ Keys?: Array<{ sk?: unknown }> }>;
  const keys = requested[0]?.Keys ?? [];
  return command === 'BatchGetItemCommand' && keys.length > 0 && keys.every((key) => key.sk === 'ORG');
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    overrides: (defaults) => ({ db: storeLandingBetween(defaults.config, armed) }),
  });
});
afterAll(() => app.close());

describe('DELETE /applications/{applicationId}/users/{userId} racing a new member', () => {
  it('keeps the organization of the deleted user that gained a member after the read', async () => {
    // Prepare
    const owned = await createOwnedApplication(app);
    const secret = { apiKey: owned.secretKey };
    const ada = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const bob = await signIn(app, newEmail(), { 'x-api-key': owned.publicKey });
    const adaId = ada.body.user.id as string;
    const orgs = `/applications/${owned.applicationId}/organizations`;
    const listed = await manage(app, 'GET', `${orgs}?limit=100`, secret);
    const adaOrgs = await Promise.all(
      (listed.body.items as Array<{ id: string }>).map(async (org) => ({
        id: org.id,
        members: (await manage(app, 'GET', `${orgs}/${org.id}/members`, secret)).body.items as Array<{
          userId: string;
        }>,
      })),
    );
    const adaOrg = adaOrgs.find((org) => org.members.some((member) => member.userId === adaId));
    expect(adaOrg?.members).toHaveLength(1);
    armed.next = {
      when: readsOrganizations,
      run: async () => {
        const added = await manage(app, 'POST', `${orgs}/${adaOrg?.id}/members`, secret, {
          email: bob.email,
          role: 'owner',
        });
        expect(added.status, added.text).toBe(201);
      },
    };
    // Act
    const deleted = await manage(
      app,
      'DELETE',
      `/applications/${owned.applicationId}/users/${adaId}`,
      secret,
    );
    // Assess
    expect(deleted.status, deleted.text).toBe(204);
    expect(armed.next).toBeNull();
    const org = await manage(app, 'GET', `${orgs}/${adaOrg?.id}`, secret);
    expect(org.status).toBe(200);
    expect(org.body.memberCount).toBe(1);
    const members = await manage(app, 'GET', `${orgs}/${adaOrg?.id}/members`, secret);
    expect(members.body.items.map((member: { userId: string }) => member.userId)).toEqual([bob.body.user.id]);
  });
});
