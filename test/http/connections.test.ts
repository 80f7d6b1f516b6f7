import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectError } from '../support/expect-error.ts';
import { CLIENT, connect, oauthErrorOf, refreshRequest } from '../support/oauth-token.ts';
import { signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';

let app: TestApp;
let owned: Awaited<ReturnType<typeof createOwnedApplication>>;

beforeAll(async () => {
  app = await startTestApp();
  owned = await createOwnedApplication(app);
});
afterAll(() => app.close());

const gidOf = (accessToken: string): string =>
  JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')).gid;

// Grant times are kept in whole seconds.
const wholeSeconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

describe('GET /auth/list-connections', () => {
  it("lists the user's live grants newest first, with ISO times", async () => {
    // Prepare
    const user = await createOwnedApplication(app, 'Lister App');
    const input = { userId: user.owner.userId, applicationId: user.applicationId };
    const older = await connect(app, input);
    app.clock.advance(1000);
    const newer = await connect(app, { ...input, scopes: ['auth:read'] });

    // Act
    const listed = await manage(app, 'GET', '/auth/list-connections', { token: user.owner.token });

    // Assess
    expect(listed.status).toBe(200);
    expect(listed.body.page).toEqual({ limit: 2, offset: 0, total: null, hasMore: null });
    expect(listed.body.items).toEqual([
      {
        id: gidOf(newer.tokens.access_token),
        clientId: CLIENT.clientId,
        clientName: CLIENT.clientName,
        applicationId: user.applicationId,
        resource: newer.resource,
        scopes: ['auth:read'],
        createdAt: wholeSeconds(app.clock.now()),
        lastUsedAt: wholeSeconds(app.clock.now()),
      },
      expect.objectContaining({ id: gidOf(older.tokens.access_token), scopes: ['auth:read', 'auth:write'] }),
    ]);
  });

  it('shows another user nothing of them, and refuses no session', async () => {
    await connect(app, { userId: owned.owner.userId, applicationId: owned.applicationId });
    const stranger = await signIn(app);
    const listed = await manage(app, 'GET', '/auth/list-connections', { token: stranger.token });
    expect(listed.body.items).toEqual([]);
    expectError(await app.request('GET', '/auth/list-connections'), 401, 'UNAUTHORIZED');
  });
});

describe('POST /auth/revoke-connection', () => {
  it('revokes its own grant once: the refresh token fails at once and the list drops it', async () => {
    // Prepare
    const { tokens } = await connect(app, { userId: owned.owner.userId, applicationId: owned.applicationId });
    const id = gidOf(tokens.access_token);

    // Act
    const revoked = await manage(
      app,
      'POST',
      '/auth/revoke-connection',
      { token: owned.owner.token },
      { id },
    );

    // Assess
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ revoked: true });
    expect(oauthErrorOf(await refreshRequest(app, tokens.refresh_token)).error).toBe('invalid_grant');
    const listed = await manage(app, 'GET', '/auth/list-connections', { token: owned.owner.token });
    expect(listed.body.items.map((item: { id: string }) => item.id)).not.toContain(id);
    const again = await manage(app, 'POST', '/auth/revoke-connection', { token: owned.owner.token }, { id });
    expect(again.body).toEqual({ revoked: false });
  });

  it("answers revoked: false for another user's grant and an unknown id, and leaves the grant live", async () => {
    // Prepare
    const { tokens } = await connect(app, { userId: owned.owner.userId, applicationId: owned.applicationId });
    const stranger = await signIn(app);

    // Act
    const foreign = await manage(
      app,
      'POST',
      '/auth/revoke-connection',
      { token: stranger.token },
      { id: gidOf(tokens.access_token) },
    );
    const unknown = await manage(
      app,
      'POST',
      '/auth/revoke-connection',
      { token: owned.owner.token },
      { id: 'grt_unknown' },
    );

    // Assess
    expect([foreign.body, unknown.body]).toEqual([{ revoked: false }, { revoked: false }]);
    expect((await refreshRequest(app, tokens.refresh_token)).status).toBe(200);
  });

  it('refuses a missing id and no session', async () => {
    expectError(
      await manage(app, 'POST', '/auth/revoke-connection', { token: owned.owner.token }, {}),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await app.request('POST', '/auth/revoke-connection', { body: { id: 'grt_x' } }),
      401,
      'UNAUTHORIZED',
    );
  });
});
