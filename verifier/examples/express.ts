/**
 * A back end that answers `GET /api/me` only for a signed-in user of your application.
 *
 *   DOORCODE_ISSUER=http://127.0.0.1:3000 DOORCODE_APPLICATION_ID=app_... npx tsx verifier/examples/express.ts
 *   curl -H "authorization: Bearer <token>" http://127.0.0.1:4000/api/me
 *
 * In your project, import from '@doorcode/verifier' and '@doorcode/verifier/express'.
 */
import { resolve } from 'node:path';
import express from 'express';
import { requireSession, type SessionRequest } from '../src/express.ts';
import { createVerifier, type Verifier } from '../src/index.ts';

export function expressExample(verifier: Verifier) {
  const app = express();
  app.get('/api/me', requireSession(verifier), (req, res) => {
    const { sub, email, sid } = (req as SessionRequest).auth;
    res.json({ userId: sub, email, sessionId: sid });
  });
  return app;
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const verifier = createVerifier({
    issuer: process.env.DOORCODE_ISSUER ?? 'http://127.0.0.1:3000',
    audience: process.env.DOORCODE_APPLICATION_ID ?? 'platform',
  });
  const port = Number(process.env.PORT ?? 4000);
  expressExample(verifier).listen(port, '127.0.0.1', () => {
    console.log(`Express example on http://127.0.0.1:${port}/api/me`);
  });
}
