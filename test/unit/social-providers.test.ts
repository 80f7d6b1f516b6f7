import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { providerSetup, WrongIssuer } from '../../shared/social/providers.ts';

// Microsoft Entra ID, any tenant (shared/social/providers.ts): the issuer a token answer is checked
// against is the user's tenant's, read from the ID token's `tid`; an RFC 9207 `iss` of a tenant is
// accepted only in Entra's own form. No local Entra exists, so these parts are tested directly.
const config = loadConfig({
  TABLE_NAME: 'doorcode',
  ISSUER: 'https://auth.example.test',
  MAIL_FROM: 'a@example.test',
});
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

const idToken = (claims: Record<string, unknown>) =>
  ['{"alg":"RS256"}', JSON.stringify(claims), 'sig']
    .map((part) => Buffer.from(part).toString('base64url'))
    .join('.');
const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

describe('Microsoft, any tenant', () => {
  it("checks a token answer against the issuer of the ID token's tenant, and keeps the answer readable", async () => {
    // Prepare
    const setup = await providerSetup(config, 'microsoft', undefined, Date.now());
    const response = answer({ id_token: idToken({ tid: TENANT }) });

    // Act
    const as = await setup.answerIssuer?.(response);

    // Assess
    expect(as?.issuer).toBe(`https://login.microsoftonline.com/${TENANT}/v2.0`);
    expect(((await response.json()) as { id_token: unknown }).id_token).toBeTypeOf('string');
  });

  it('keeps the template issuer (which no iss equals) for a token without a well-formed tid', async () => {
    const setup = await providerSetup(config, 'microsoft', undefined, Date.now());
    for (const body of [
      { id_token: idToken({}) },
      { id_token: idToken({ tid: '../evil' }) },
      { id_token: 'x' },
      {},
    ]) {
      expect((await setup.answerIssuer?.(answer(body)))?.issuer).toBe(
        'https://login.microsoftonline.com/{tenantid}/v2.0',
      );
    }
  });

  it("accepts an authorization response's iss of a tenant in Entra's form only", async () => {
    const setup = await providerSetup(config, 'microsoft', undefined, Date.now());
    const accepted = setup.responseParameters?.(
      new URLSearchParams({ code: 'c', iss: `https://login.microsoftonline.com/${TENANT}/v2.0` }),
    );
    expect(accepted?.get('iss')).toBeNull();
    expect(accepted?.get('code')).toBe('c');
    expect(setup.responseParameters?.(new URLSearchParams({ code: 'c' }))?.get('code')).toBe('c');
    for (const iss of ['https://evil.example/v2.0', `https://login.microsoftonline.com/${TENANT}/v2.0/x`]) {
      // A mix-up (RFC 9207 §2.4), which the callback answers 403, not as a failing provider.
      expect(() => setup.responseParameters?.(new URLSearchParams({ code: 'c', iss }))).toThrow(WrongIssuer);
    }
  });
});
