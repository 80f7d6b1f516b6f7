import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { newEmail, signIn } from '../support/sign-in.ts';
import { storeWith } from '../support/store.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

// Deleting a user deletes an organization it was the only member of, decided from a read of the
// organizations' member counts. A member who joins after that read keeps the organization: its
// delete is conditioned on the member count read, and otherwise the user only leaves (review 2, item 4).

/** Runs once, right after the next BatchGetItem that reads only organization items. */
let between: (() => Promise<void>) | null = null;

const racingStore = (config: TestApp['deps']['config']) =>
  storeWith(config, 'joinBetween', (next, context) => async (args) => {
    const answer = await next(args);
    const input = args.input as { RequestItems?: Record<string, { Keys?: Array<{ sk?: unknown }> }> };
    const keys = Object.values(input.RequestItems ?? {})[0]?.Keys ?? [];
    const readsOrganizations = keys.length > 0 && keys.every((key) => key.sk === 'ORG');
    if (
      between &&
      (context as { commandName?: string }).commandName === 'BatchGetItemCommand' &&
      readsOrganizations
    ) {
      const run = between;
      between = null;
      await run();
    }
    return answer;
  });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ overrides: (defaults) => ({ db: racingStore(defaults.config) }) });
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
    between = async () => {
      const added = await manage(app, 'POST', `${orgs}/${adaOrg?.id}/members`, secret, {
        email: bob.email,
        role: 'owner',
      });
      expect(added.status, added.text).toBe(201);
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
    expect(between).toBeNull();
    const org = await manage(app, 'GET', `${orgs}/${adaOrg?.id}`, secret);
    expect(org.status).toBe(200);
    expect(org.body.memberCount).toBe(1);
    const members = await manage(app, 'GET', `${orgs}/${adaOrg?.id}/members`, secret);
    expect(members.body.items.map((member: { userId: string }) => member.userId)).toEqual([bob.body.user.id]);
  });
});
