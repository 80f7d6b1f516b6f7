import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeItems } from '../../shared/route-items.ts';
import type { RouteId } from '../../shared/routes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { bearer, newEmail, signIn } from '../support/sign-in.ts';
import { createOwnedApplication, manage } from '../support/tenancy.ts';
import { familiesOf, PartitionRecorder, routeOf, type TouchedPartition } from '../support/touched-keys.ts';

/**
 * Issue 9, item 8: every partition a route's handler touches belongs to an item family the route
 * declares (shared/route-items.ts), so the `dynamodb:LeadingKeys` condition its role gets
 * (lib/grants.ts) never refuses it in AWS. The battery runs the sign-in, session and management
 * bootstrap paths one request at a time and records, with an SDK middleware, the partition keys of
 * every DynamoDB command, attributed to the route that served the request.
 */
const recorder = new PartitionRecorder();
/** Per route: what it touched, and whether it answered 2xx at least once (an exercised route). */
const seen = new Map<RouteId, { touched: TouchedPartition[]; answered: boolean }>();
let real: TestApp;
let app: TestApp;
let queue: Promise<unknown> = Promise.resolve();

beforeAll(async () => {
  real = await startTestApp({ env: { MAX_CODE_EMAILS_PER_HOUR: '1000' } });
  recorder.watch(real.deps);
  // The same app whose requests run one after the other, each one's commands given to its route.
  app = {
    ...real,
    request: (method, path, options) => {
      const run = queue.then(async () => {
        recorder.take();
        const response = await real.request(method, path, options);
        const route = routeOf(method, path);
        if (!route) throw new Error(`no route serves ${method} ${path}`);
        const entry = seen.get(route) ?? { touched: [], answered: false };
        entry.touched.push(...recorder.take());
        entry.answered ||= response.status < 300;
        seen.set(route, entry);
        return response;
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
});
afterAll(() => real.close());

describe('the item families each route declares (shared/route-items.ts)', () => {
  it('cover every partition the sign-in, session and management paths touch', async () => {
    // Health and discovery.
    await app.request('GET', '/');
    await app.request('GET', '/status');
    await app.request('GET', '/.well-known/jwks.json');
    await app.request('OPTIONS', '/auth/session', { headers: { origin: 'https://app.doorcode.test' } });

    // The bootstrap of SPEC §1.4: a platform sign-in, an organization, an application, its keys.
    const owned = await createOwnedApplication(app);
    const token = owned.owner.token;
    const auth = bearer(token);
    const { applicationId, organizationId, publicKey, secretKey } = owned;

    // Sessions.
    await app.request('GET', '/auth/session', { headers: auth });
    await app.request('GET', '/auth/list-sessions', { headers: auth });
    await app.request('POST', '/auth/update-user', { headers: auth, body: { name: 'Ada' }, ip: freshIp() });

    // Management reads and writes.
    await manage(app, 'GET', '/organizations', { token });
    await manage(app, 'GET', `/organizations/${organizationId}`, { token });
    await manage(app, 'PATCH', `/organizations/${organizationId}`, { token }, { name: 'Acme Inc' });
    await manage(app, 'GET', `/organizations/${organizationId}/members`, { token });
    await manage(app, 'GET', `/organizations/${organizationId}/applications`, { token });
    await manage(app, 'GET', `/applications/${applicationId}`, { token });
    await manage(app, 'PATCH', `/applications/${applicationId}`, { token }, { name: 'Acme Notes 2' });
    await manage(app, 'GET', `/applications/${applicationId}/configuration`, { token });
    await manage(
      app,
      'PATCH',
      `/applications/${applicationId}/configuration`,
      { apiKey: secretKey },
      { authentication: { syntheticEmailDomain: 'bots.acme.test' } },
    );
    await manage(app, 'GET', `/applications/${applicationId}/api-keys`, { token });
    await app.request('GET', '/application/by-api-key', { headers: { 'x-api-key': publicKey } });
    const invitee = newEmail();
    await manage(
      app,
      'POST',
      `/organizations/${organizationId}/members`,
      { token },
      { email: invitee, role: 'admin' },
    );
    await manage(app, 'GET', '/invitations', { token });

    // An end user of the application signs in with its public key; the owner looks at it.
    const endUser = await signIn(app, newEmail(), { 'x-api-key': publicKey });
    const endAuth = bearer(endUser.token, { 'x-api-key': publicKey });
    await app.request('GET', '/auth/session', { headers: endAuth });
    const userId = endUser.body.user.id as string;
    await manage(app, 'GET', `/applications/${applicationId}/users`, { apiKey: secretKey });
    await manage(app, 'GET', `/applications/${applicationId}/users/search?q=user`, { apiKey: secretKey });
    await manage(app, 'GET', `/applications/${applicationId}/users/${userId}`, { apiKey: secretKey });
    await manage(app, 'GET', `/applications/${applicationId}/statistics`, { apiKey: secretKey });
    await manage(app, 'GET', `/applications/${applicationId}/audit`, { apiKey: secretKey });
    await manage(app, 'GET', `/applications/${applicationId}/organizations`, { apiKey: secretKey });

    // Test automation: a synthetic address's code by the secret key, then the approve path.
    const bot = 'ci-bot@bots.acme.test';
    await app.request('POST', '/auth/code/start', {
      body: { email: bot },
      headers: { 'x-api-key': publicKey },
      ip: freshIp(),
    });
    await app.request('POST', '/auth/code/peek', {
      body: { email: bot },
      headers: { 'x-api-key': secretKey },
      ip: freshIp(),
    });
    await app.request('POST', '/auth/code/approve', {
      body: { email: bot, code: await latestCode(bot) },
      headers: { 'x-api-key': publicKey },
      ip: freshIp(),
    });

    // Ending sessions.
    await app.request('POST', '/auth/revoke-other-sessions', { headers: endAuth, ip: freshIp() });
    await app.request('POST', '/auth/sign-out', { headers: endAuth, ip: freshIp() });
    await queue;

    const undeclared = [...seen].flatMap(([route, { touched }]) =>
      touched
        .filter((partition) => !familiesOf(partition).some((family) => routeItems[route].includes(family)))
        .map((partition) => ({ route, ...partition, families: familiesOf(partition) })),
    );
    expect(undeclared).toEqual([]);
    // The paths above reach these routes with a 2xx answer; the report names the rest.
    const exercised = [...seen].filter(([, entry]) => entry.answered).map(([route]) => route);
    expect(exercised.length).toBeGreaterThanOrEqual(30);
  });
});
