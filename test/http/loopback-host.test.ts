import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

// DNS rebinding: a web page can point a name of its own at 127.0.0.1 and read a loopback server's
// answers as same-origin. Local mode answers only requests whose Host names 127.0.0.1 or
// localhost: the service, and the mail emulator whose store holds every sign-in code.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A GET to `base` + `path` with the Host header set to `host` (the name a rebound page used). */
function getAs(base: string, path: string, host: string): Promise<number> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'GET',
        headers: { host },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('local mode answers only loopback host names', () => {
  it('refuses a rebound name at the service with 421, and answers 127.0.0.1 and localhost', async () => {
    const port = new URL(app.url).port;
    expect(await getAs(app.url, '/', `attacker.example:${port}`)).toBe(421);
    expect(await getAs(app.url, '/', `127.0.0.1:${port}`)).toBe(200);
    expect(await getAs(app.url, '/', `localhost:${port}`)).toBe(200);
  });

  it("refuses a rebound name at the mail emulator's store of sign-in codes", async () => {
    const ses = inject('sesEndpoint');
    const port = new URL(ses).port;
    expect(await getAs(ses, '/store', `attacker.example:${port}`)).toBe(421);
    expect(await getAs(ses, '/store', `127.0.0.1:${port}`)).toBe(200);
  });
});
