import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../shared/tenancy/api-keys.ts';
import { createFixtureApplication } from '../../shared/tenancy/applications.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { TestClock } from '../support/clock.ts';
import { freshIp } from '../support/http-client.ts';
import { mailTo, type StoredEmail } from '../support/inbox.ts';
import { newEmail } from '../support/sign-in.ts';
import { createTestApplication, fixtureAudit } from '../support/tenancy.ts';

/** Monday 23 November 2026, 09:05 UTC: the clock of every start in this file. */
const NOW = Date.UTC(2026, 10, 23, 9, 5, 0);
const NOW_IN_WORDS = 'Monday 23 November 2026 at 09:05 UTC';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock: new TestClock(NOW) });
});
afterAll(() => app.close());

const start = (email: string, options: { ip: string; headers?: Record<string, string> }) =>
  app.request('POST', '/auth/code/start', { body: { email }, ...options });

async function newestMail(address: string): Promise<StoredEmail> {
  const message = (await mailTo(address)).at(-1);
  if (!message) throw new Error(`no email to ${address}`);
  return message;
}

/** The plain text and the HTML of a message: everything a human may read. */
const bothParts = (message: StoredEmail) => [message.body.text ?? '', message.body.html ?? ''];

describe('the sign-in email tells one request from another', () => {
  it('shows the phrase start answered, the application, the time in UTC, the network address and the client', async () => {
    // Prepare
    const { publicKey } = await createTestApplication(app, {}, 'Acme Notes');
    const email = newEmail();
    const ip = freshIp();

    // Act
    const answer = await start(email, {
      ip,
      headers: { 'x-api-key': publicKey, 'user-agent': 'acme-agent/2.1 (linux)' },
    });

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.phrase).toMatch(/^[a-z]+ [a-z]+$/);
    const message = await newestMail(email);
    expect(message.subject).toBe(`Your Acme Notes sign-in code (${answer.body.phrase})`);
    for (const part of bothParts(message)) {
      expect(part).toContain(answer.body.phrase);
      expect(part).toContain('Acme Notes');
      expect(part).toContain(NOW_IN_WORDS);
      expect(part).toContain(ip);
      expect(part).toContain('acme-agent/2.1 (linux)');
    }
  });

  it('names the service for a platform start', async () => {
    // Act
    const email = newEmail();
    const answer = await start(email, { ip: freshIp() });

    // Assess
    const message = await newestMail(email);
    expect(message.subject).toBe(`Your doorcode sign-in code (${answer.body.phrase})`);
    expect(message.body.text).toContain('Your sign-in code for doorcode is:');
  });

  it("shows a later start by someone else with that start's own phrase, network and client", async () => {
    // Prepare: the agent starts, then an attacker starts for the same address (a start replaces the pending
    // one: docs/security.md, "Sign-in codes").
    const email = newEmail();
    const agentIp = freshIp();
    const attackerIp = freshIp();
    const agent = await start(email, { ip: agentIp, headers: { 'user-agent': 'agent/1.0' } });
    const agentMail = await newestMail(email);

    // Act
    const attacker = await start(email, { ip: attackerIp, headers: { 'user-agent': 'curl/8.5.0' } });
    const attackerMail = await newestMail(email);

    // Assess: the human holding the agent's phrase can tell the newest email is not the agent's.
    expect(agentMail.body.text).toContain(`Phrase: ${agent.body.phrase}`);
    expect(attackerMail.body.text).toContain(`Phrase: ${attacker.body.phrase}`);
    expect(attackerMail.subject).toContain(attacker.body.phrase);
    expect(attackerMail.body.text).toContain(attackerIp);
    expect(attackerMail.body.text).toContain('curl/8.5.0');
    expect(attackerMail.body.text).not.toContain(agentIp);
    expect(attackerMail.body.text).not.toContain('agent/1.0');
  });

  it('shortens a long client name and drops links from it (no link in the email)', async () => {
    // Prepare
    const longAgent = `Mozilla/5.0 (X11; Linux x86_64) ${'Gecko/20100101 '.repeat(30)}Firefox/140.0`;
    const linkAgent = 'helpful-bot/3.0 (+https://evil.test/approve-now; compatible)';
    const [first, second] = [newEmail(), newEmail()];

    // Act
    await start(first, { ip: freshIp(), headers: { 'user-agent': longAgent } });
    await start(second, { ip: freshIp(), headers: { 'user-agent': linkAgent } });

    // Assess
    for (const part of bothParts(await newestMail(first))) {
      expect(part).toContain('Mozilla/5.0 (X11; Linux x86_64)');
      expect(part).not.toContain('Gecko/20100101 '.repeat(10));
      expect(part).not.toContain('Firefox/140.0');
    }
    for (const part of bothParts(await newestMail(second))) {
      expect(part).toContain('helpful-bot/3.0');
      expect(part).not.toMatch(/https?:|evil\.test/);
    }
  });
});

describe('the subject is one line whatever the application is called', () => {
  it('turns line breaks in a stored application name into spaces, in the subject and the text', async () => {
    // Prepare: the name comes from the table (no request sets it today).
    // The API refuses such a name (shared/identity/display-name.ts): the fixture writes it to the table
    // as a bug or a hand edit could, to show the mail stays one header line whatever the table holds.
    const application = await createFixtureApplication(app.deps, {
      organizationId: 'org_test',
      name: 'Acme\r\nBcc: attacker@evil.test\u2028Notes\u0000',
    });
    const { key: publicKey } = await createApiKey(app.deps, fixtureAudit, {
      applicationId: application.id,
      organizationId: application.organizationId,
      type: 'public',
    });
    const email = newEmail();

    // Act
    const answer = await start(email, { ip: freshIp(), headers: { 'x-api-key': publicKey } });

    // Assess
    expect(answer.status).toBe(200);
    const message = await newestMail(email);
    expect(message.subject).toBe(
      `Your Acme Bcc: attacker evil test Notes sign-in code (${answer.body.phrase})`,
    );
    expect(message.destination.to).toEqual([email]);
    expect(message.body.text?.split('\n')[0]).toBe(
      'Your sign-in code for Acme Bcc: attacker evil test Notes is:',
    );
    for (const part of bothParts(message)) {
      for (const character of ['\u0000', '\r', '\u2028']) expect(part).not.toContain(character);
    }
  });
});
