import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/health/root.ts';

const event = {
  version: '2.0',
  routeKey: '$default',
  rawPath: '/',
  rawQueryString: '',
  headers: {},
  isBase64Encoded: false,
  requestContext: { requestId: 'req-1', http: { method: 'GET', path: '/', sourceIp: '127.0.0.1' } },
} as never;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('a function whose configuration is invalid', () => {
  it('answers 500 INTERNAL_ERROR and logs the error naming the settings', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    // No deps in the context, and no TABLE_NAME/ISSUER/MAIL_FROM in the environment (whatever the
    // shell running the tests exports): the container's configuration cannot be built.
    for (const name of ['TABLE_NAME', 'ISSUER', 'MAIL_FROM']) vi.stubEnv(name, undefined);
    const result = await handler(event, { awsRequestId: 'req-1' } as Context);
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body as string)).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'Internal error' },
    });
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.errorName === 'ConfigError');
    expect(logged.errorMessage).toMatch(/TABLE_NAME/);
    expect(logged.errorMessage).toMatch(/ISSUER/);
    expect(logged.errorMessage).toMatch(/MAIL_FROM/);
  });
});
