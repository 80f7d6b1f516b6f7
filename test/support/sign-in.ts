import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '../../shared/crypto/hash.ts';
import { CODE_ALPHABET } from '../../shared/sign-in/code.ts';
import { keys } from '../../shared/store/keys.ts';
import { createApiKey } from '../../shared/tenancy/api-keys.ts';
import { createFixtureApplication, type FixtureConfiguration } from '../../shared/tenancy/applications.ts';
import type { TestApp } from './app.ts';
import { freshIp } from './http-client.ts';
import { latestCode } from './inbox.ts';

/** A fresh address nobody else in the run uses. */
export const newEmail = (domain = 'example.test') => `user-${randomUUID().slice(0, 12)}@${domain}`;

/** A well-formed code that is not `code`: its first character moved one place along the alphabet. */
export function wrongCode(code: string): string {
  const at = CODE_ALPHABET.indexOf(code.charAt(0).toUpperCase());
  if (at < 0) throw new Error(`not a sign-in code: ${code}`);
  return `${CODE_ALPHABET[(at + 1) % CODE_ALPHABET.length]}${code.slice(1)}`;
}

/** An application with a public and a secret key, created through the store (no management API yet). */
export async function createTestApplication(
  app: TestApp,
  configuration: FixtureConfiguration = {},
  name = 'Acme Notes',
) {
  const application = await createFixtureApplication(app.deps, {
    organizationId: 'org_test',
    name,
    configuration,
  });
  const publicKey = await createApiKey(app.deps, { applicationId: application.id, type: 'public' });
  const secretKey = await createApiKey(app.deps, { applicationId: application.id, type: 'secret' });
  return { application, publicKey: publicKey.key, secretKey: secretKey.key };
}

/** start -> read the emailed code -> verify; returns the SignInResult body and the code. */
export async function signIn(app: TestApp, email = newEmail(), headers: Record<string, string> = {}) {
  const start = await app.request('POST', '/auth/code/start', { body: { email }, headers, ip: freshIp() });
  if (start.status !== 200) throw new Error(`start answered ${start.status}: ${start.text}`);
  const code = await latestCode(email);
  const verify = await app.request('POST', '/auth/code/verify', {
    body: { email, code },
    headers,
    ip: freshIp(),
  });
  if (verify.status !== 200) throw new Error(`verify answered ${verify.status}: ${verify.text}`);
  return { email, code, token: verify.body.token as string, body: verify.body, response: verify };
}

export const bearer = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
});

/** Marks an API key revoked, as the management API will. */
export async function revokeApiKey(app: TestApp, key: string): Promise<void> {
  await app.deps.db.client.send(
    new UpdateCommand({
      TableName: app.deps.db.table,
      Key: keys.apiKey(sha256Hex(key)),
      UpdateExpression: 'SET revokedAt = :now',
      ExpressionAttributeValues: { ':now': new Date(app.clock.now()).toISOString() },
    }),
  );
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
