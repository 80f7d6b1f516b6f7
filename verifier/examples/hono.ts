/**
 * The same back end with Hono: `GET /api/me` for a signed-in user of your application.
 *
 *   DOORCODE_ISSUER=http://127.0.0.1:3000 DOORCODE_APPLICATION_ID=app_... npx tsx verifier/examples/hono.ts
 *   curl -H "authorization: Bearer <token>" http://127.0.0.1:4001/api/me
 *
 * On an edge runtime (Cloudflare Workers, Deno, Bun), export `honoExample(verifier)` as the default
 * export instead of calling `serve`: the verifier needs only fetch and Web Crypto.
 * In your project, import from '@doorcode/verifier' and '@doorcode/verifier/hono'.
 */
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { requireSession, type SessionEnv } from '../src/hono.ts';
import { createVerifier, type Verifier } from '../src/index.ts';

export function honoExample(verifier: Verifier) {
  const app = new Hono<SessionEnv>();
  app.get('/api/me', requireSession(verifier), (c) => {
    const auth = c.get('auth');
    return c.json({ userId: auth.sub, email: auth.email, sessionId: auth.sid });
  });
  return app;
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const verifier = createVerifier({
    issuer: process.env.DOORCODE_ISSUER ?? 'http://127.0.0.1:3000',
    audience: process.env.DOORCODE_APPLICATION_ID ?? 'platform',
  });
  const port = Number(process.env.PORT ?? 4001);
  serve({ fetch: honoExample(verifier).fetch, port, hostname: '127.0.0.1' }, () => {
    console.log(`Hono example on http://127.0.0.1:${port}/api/me`);
  });
}
