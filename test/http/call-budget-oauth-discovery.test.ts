import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
import { createOwnedApplication } from '../support/tenancy.ts';

// The discovery documents (docs/api.md "OAuth discovery"): the two static ones touch nothing, an
// application's one reads the application once; none signs or sends.
const counter = new CallCounter();
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    overrides: countedBy(counter),
  });
  counter.watch(app.deps);
});
afterAll(() => app.close());

async function measure(path: string, expectedStatus = 200) {
  counter.reset();
  const response = await app.request('GET', path);
  expect(response.status).toBe(expectedStatus);
  return counter.snapshot();
}

describe('AWS calls per discovery request', () => {
  it('the authorization server and service resource metadata: no AWS call', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource']) {
      expect(await measure(path), path).toEqual({ dynamodb: 0, commands: [], kmsSign: 0, sesSend: 0 });
    }
  });

  it("an application's resource metadata: one GetItem, found or not", async () => {
    // Prepare
    const { applicationId } = await createOwnedApplication(app);

    // Act
    const found = await measure(`/.well-known/oauth-protected-resource/mcp/${applicationId}`);
    const missing = await measure('/.well-known/oauth-protected-resource/mcp/app_missing', 404);

    // Assess
    for (const calls of [found, missing]) {
      expect(calls).toEqual({ dynamodb: 1, commands: ['GetItemCommand'], kmsSign: 0, sesSend: 0 });
    }
  });
});
