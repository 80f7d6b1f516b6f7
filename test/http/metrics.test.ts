import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailUnavailableError } from '../../shared/mail/mailer.ts';
import { METRIC_NAMESPACE } from '../../shared/metrics/metrics.ts';
import { CODE_TTL_SECONDS, MAX_ATTEMPTS } from '../../shared/sign-in/request.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freshIp } from '../support/http-client.ts';
import { latestCode } from '../support/inbox.ts';
import { newEmail, wrongCode } from '../support/sign-in.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** The EMF lines (CloudWatch embedded metric format) the app wrote while `act` ran. */
async function metricsOf(target: TestApp, act: () => Promise<unknown>) {
  const before = target.logs.length;
  await act();
  return target.logs
    .slice(before)
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((line) => line._aws !== undefined);
}

/** The one EMF line of one request: its counts by metric name, and the line itself. */
async function countsOf(target: TestApp, act: () => Promise<unknown>) {
  const lines = await metricsOf(target, act);
  expect(lines).toHaveLength(1);
  const line = lines[0]!;
  const names = line._aws.CloudWatchMetrics.flatMap((d: { Metrics: { Name: string }[] }) =>
    d.Metrics.map((m) => m.Name),
  );
  return { line, counts: Object.fromEntries(names.map((name: string) => [name, line[name]])) };
}

const post = (target: TestApp, path: string, body: unknown, ip = freshIp()) =>
  target.request('POST', path, { body, ip });

async function started(email = newEmail()) {
  const response = await post(app, '/auth/code/start', { email });
  expect(response.status).toBe(200);
  return { email, code: await latestCode(email), deviceCode: response.body.deviceCode as string };
}

describe('metrics (CloudWatch embedded metric format in the function log)', () => {
  it('writes one EMF line per start: SignInsStarted and EmailsSent, in the Doorcode namespace by Service', async () => {
    const email = newEmail();
    const { line, counts } = await countsOf(app, () => post(app, '/auth/code/start', { email }));
    expect(counts).toEqual({ SignInsStarted: 1, EmailsSent: 1 });
    expect(line).toMatchObject({
      level: 'info',
      message: 'metrics',
      route: 'POST /auth/code/start',
      Service: 'doorcode',
      _aws: {
        Timestamp: app.clock.now(),
        CloudWatchMetrics: [
          {
            Namespace: METRIC_NAMESPACE,
            Dimensions: [['Service']],
            Metrics: [
              { Name: 'EmailsSent', Unit: 'Count' },
              { Name: 'SignInsStarted', Unit: 'Count' },
            ],
          },
        ],
      },
    });
  });

  it('counts a completed sign-in', async () => {
    const { email, code } = await started();
    const { counts } = await countsOf(app, () => post(app, '/auth/code/verify', { email, code }));
    expect(counts).toEqual({ SignInsCompleted: 1 });
  });

  it('counts a wrong code as refused (Reason wrong) and the sign-in as failed', async () => {
    const { email, code } = await started();
    const { line, counts } = await countsOf(app, () =>
      post(app, '/auth/code/verify', { email, code: wrongCode(code) }),
    );
    expect(counts).toEqual({ CodesRefused: 1, SignInsFailed: 1 });
    expect(line.Reason).toBe('wrong');
    expect(line._aws.CloudWatchMetrics).toContainEqual({
      Namespace: METRIC_NAMESPACE,
      Dimensions: [['Service', 'Reason']],
      Metrics: [{ Name: 'CodesRefused', Unit: 'Count' }],
    });
  });

  it('tells an expired code and a destroyed request apart by Reason', async () => {
    const expired = await started();
    app.clock.advance(CODE_TTL_SECONDS * 1000 + 1);
    const late = await countsOf(app, () =>
      post(app, '/auth/code/verify', { email: expired.email, code: expired.code }),
    );
    expect(late.line.Reason).toBe('expired');
    expect(late.counts).toEqual({ CodesRefused: 1, SignInsFailed: 1 });

    const guessed = await started();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      await post(app, '/auth/code/verify', { email: guessed.email, code: wrongCode(guessed.code) });
    }
    const destroyed = await countsOf(app, () =>
      post(app, '/auth/code/verify', { email: guessed.email, code: guessed.code }),
    );
    expect(destroyed.line.Reason).toBe('tooMany');
    expect(destroyed.counts).toEqual({ CodesRefused: 1, SignInsFailed: 1 });
  });

  it('counts a poll with an unusable device code as a failed sign-in, and a pending one as nothing', async () => {
    const { deviceCode } = await started();
    expect(await metricsOf(app, () => post(app, '/auth/code/poll', { deviceCode }))).toEqual([]);
    const unknown = `${deviceCode.slice(0, -1)}${deviceCode.endsWith('A') ? 'B' : 'A'}`;
    const { counts } = await countsOf(app, async () => {
      expect((await post(app, '/auth/code/poll', { deviceCode: unknown })).status).toBe(400);
    });
    expect(counts).toEqual({ SignInsFailed: 1 });
  });

  it('counts a start refused by a rate limit as RateLimited, not as started', async () => {
    const ip = freshIp();
    for (let n = 0; n < 5; n++)
      expect((await post(app, '/auth/code/start', { email: newEmail() }, ip)).status).toBe(200);
    const { counts } = await countsOf(app, async () => {
      expect((await post(app, '/auth/code/start', { email: newEmail() }, ip)).status).toBe(429);
    });
    expect(counts).toEqual({ RateLimited: 1 });
  });

  it('writes no line for a request that counted nothing', async () => {
    expect(await metricsOf(app, () => app.request('GET', '/.well-known/jwks.json'))).toEqual([]);
  });
});

describe('metrics of failing providers', () => {
  it('counts an email the provider refused as EmailsRefused, and no start', async () => {
    const refusing = await startTestApp({
      overrides: {
        mailer: {
          send: () => Promise.reject(new MailUnavailableError('refused')),
          isSuppressed: () => Promise.resolve(false),
        },
      },
    });
    try {
      const { counts } = await countsOf(refusing, async () => {
        expect((await post(refusing, '/auth/code/start', { email: newEmail() })).status).toBe(503);
      });
      expect(counts).toEqual({ EmailsRefused: 1 });
    } finally {
      await refusing.close();
    }
  });

  it('counts a failed signature as KmsSignErrors', async () => {
    const failing = await startTestApp({
      overrides: (defaults) => ({
        signer: {
          activeKey: () => defaults.signer.activeKey(),
          publicKeys: () => defaults.signer.publicKeys(),
          sign: () => Promise.reject(new Error('KMS is unavailable')),
        },
      }),
    });
    try {
      const email = newEmail();
      expect((await post(failing, '/auth/code/start', { email })).status).toBe(200);
      const code = await latestCode(email);
      const { counts } = await countsOf(failing, async () => {
        expect((await post(failing, '/auth/code/verify', { email, code })).status).toBe(500);
      });
      expect(counts).toEqual({ KmsSignErrors: 1 });
    } finally {
      await failing.close();
    }
  });
});
