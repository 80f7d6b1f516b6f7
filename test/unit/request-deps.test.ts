import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler as status } from '../../functions/health/status.ts';
import { loadConfig } from '../../shared/config.ts';
import { createDeps, type Deps, forRequest } from '../../shared/deps.ts';
import type { LocalContext } from '../../shared/http/handler.ts';
import { createLogger } from '../../shared/log.ts';
import { routes } from '../../shared/routes.ts';
import { UndeclaredAccessError } from '../../shared/undeclared.ts';

const config = loadConfig({
  TABLE_NAME: 'unit',
  ISSUER: 'https://auth.example.com',
  MAIL_FROM: 'no-reply@example.com',
  LOG_LEVEL: 'debug',
});

const unreachable = { client: { send: () => Promise.reject(new Error('unreachable')) }, table: 'unit' };
const noKeys = {
  activeKey: () => Promise.reject(new Error('none')),
  publicKeys: async () => [],
  sign: () => Promise.reject(new Error('none')),
};
const noMail = { send: async () => undefined, isSuppressed: async () => false };

function depsWithLog(): { deps: Deps; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const deps = createDeps(config, {
    db: unreachable as never,
    signer: noKeys,
    mailer: noMail,
    logger: createLogger('debug', (line) => lines.push(JSON.parse(line))),
  });
  return { deps, lines };
}

const statusEvent = (requestId: string) =>
  ({
    version: '2.0',
    routeKey: 'GET /status',
    rawPath: '/status',
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { requestId, http: { method: 'GET', path: '/status', sourceIp: '127.0.0.1' } },
  }) as never;

describe('the request logger', () => {
  it('marks every line of a request, domain lines included, with its id, route and cold start', async () => {
    const { deps, lines } = depsWithLog();
    const context = { awsRequestId: 'aws', doorcodeDeps: deps } as LocalContext as Context;
    await status(statusEvent('first'), context);
    await status(statusEvent('second'), context);

    // The status checks log their failures through deps.logger; the chain logs one line per request.
    const messages = lines.map((line) => [line.requestId, line.message, line.coldStart, line.route]);
    expect(messages).toEqual([
      ['first', 'status check failed', true, 'GET /status'],
      ['first', 'status check failed', true, 'GET /status'],
      ['first', 'request', true, 'GET /status'],
      ['second', 'status check failed', false, 'GET /status'],
      ['second', 'status check failed', false, 'GET /status'],
      ['second', 'request', false, 'GET /status'],
    ]);
  });
});

// After the cold-start test: the container's first request is whichever reaches forRequest first.
describe('a port the route does not declare', () => {
  it('fails naming the route and the missing access', async () => {
    const root = forRequest(depsWithLog().deps, routes.root, 'r1');
    expect(() => root.db.client).toThrow(UndeclaredAccessError);
    expect(() => root.db.table).toThrow(/GET \/ used deps\.db, but its route declares no `table` access/);
    await expect(root.signer.publicKeys()).rejects.toThrow(/`sign` or `publicKeys`/);
    await expect(root.mailer.send({ to: 'a@example.com', subject: '', text: '', html: '' })).rejects.toThrow(
      /GET \/ used deps\.mailer, but its route declares no `mail` access/,
    );
  });

  it('is the same port as before for a route that declares it', () => {
    const { deps } = depsWithLog();
    const start = forRequest(deps, routes.codeStart, 'r2');
    expect([start.db, start.mailer]).toEqual([deps.db, deps.mailer]);
    expect(forRequest(deps, routes.jwks, 'r3').signer).toBe(deps.signer);
  });

  it('is never built by the composition root for a route without the access', () => {
    const bare = createDeps(config, {}, routes.root.access, 'GET /');
    expect(() => bare.db.client).toThrow(UndeclaredAccessError);
  });
});
