import * as z from 'zod/mini';

/** `GET /` (docs/api.md, Endpoints). */
export const Root = z.object({ status: z.literal('ok'), service: z.string(), timestamp: z.string() });

const CheckStatus = z.enum(['ok', 'degraded', 'down']);

/** StatusReport (docs/api.md, Endpoints): the overall status is the worst of the checks. */
export const StatusReport = z.object({
  status: CheckStatus,
  service: z.string(),
  timestamp: z.string(),
  checks: z.array(
    z.object({
      name: z.string(),
      status: CheckStatus,
      latencyMs: z.number(),
      message: z.optional(z.string()),
    }),
  ),
});

/** RFC 7517 key set of RSA verification keys. */
export const Jwks = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('RSA'),
      kid: z.string(),
      alg: z.literal('RS256'),
      use: z.literal('sig'),
      n: z.string(),
      e: z.string(),
    }),
  ),
});
