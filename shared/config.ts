import { en } from 'zod/locales';
import * as z from 'zod/mini';

// zod/mini, not the classic API: every function validates its configuration, and for a route
// whose handler uses no other zod the classic API cost about 10 ms more CPU at import
// (bench/bundles.ts, the preflight route: 28 -> 18 ms). Same English messages as the classic API.
z.config(en());

const list = z.pipe(
  z.optional(z.string()),
  z.transform((value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  ),
);

/**
 * `SIGNING_KEYS`: the signing key generations as JSON, `[{ "keyId", "notBefore"?, "notAfter"? }]`
 * with ISO 8601 times (shared/crypto/key-schedule.ts says what the window means).
 */
const signingKeys = z.pipe(
  z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined, context) => {
      if (value === undefined || value.trim() === '') return [];
      try {
        return JSON.parse(value) as unknown;
      } catch {
        context.issues.push({ code: 'custom', message: 'not JSON', input: value });
        return z.NEVER;
      }
    }),
  ),
  z.array(
    z.object({
      keyId: z.string().check(z.minLength(1)),
      notBefore: z.optional(z.iso.datetime({ offset: true })),
      notAfter: z.optional(z.iso.datetime({ offset: true })),
    }),
  ),
);

/** Process configuration, read from the environment once per container. */
export const Config = z
  .object({
    SERVICE_NAME: z._default(
      z
        .string()
        .check(
          z.regex(/^[a-z][a-z0-9-]{0,39}$/, 'lowercase letters, digits and hyphens, starting with a letter'),
        ),
      'doorcode',
    ),
    TABLE_NAME: z.string().check(z.minLength(3), z.maxLength(255)),
    AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
    /** Token issuer (`iss`): the public base URL of the service. */
    ISSUER: z.url({ protocol: /^https?$/ }),
    /** Origins whose browser requests receive the session cookie (docs/security.md, Session tokens). */
    PLATFORM_ORIGINS: list,
    /** Sender of the sign-in email (an SES-verified identity on AWS). */
    MAIL_FROM: z.email(),
    /** KMS key ids, ARNs or aliases; the first signs, all are published in the JWKS (SIGNING_KEYS supersedes it). */
    KMS_KEY_IDS: list,
    /** The KMS signing key generations with their signing windows (the stack sets this). */
    SIGNING_KEYS: signingKeys,
    /** Local mode: a PKCS#8 PEM file holding the RSA signing key (instead of KMS). */
    LOCAL_SIGNING_KEY_FILE: z.optional(z.string().check(z.minLength(1))),
    /**
     * The Secrets Manager secret holding the sign-in code-hash key, as 64 hex characters
     * (docs/security.md, The code-hash key).
     */
    CODE_KEY_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
    /** Local mode: a file holding the code-hash key as hex (instead of Secrets Manager). */
    LOCAL_CODE_KEY_FILE: z.optional(z.string().check(z.minLength(1))),
    /**
     * The KMS symmetric key (id, ARN or alias) that seals owners' OAuth client secrets
     * (docs/security.md, Provider client secrets).
     */
    SEALING_KEY_ID: z.optional(z.string().check(z.minLength(1))),
    /** Local mode: a file holding the AES-256-GCM sealing key as hex (instead of KMS). */
    LOCAL_SEALING_KEY_FILE: z.optional(z.string().check(z.minLength(1))),
    /** Local mode: endpoints of DynamoDB Local and the SES emulator. */
    DYNAMODB_ENDPOINT: z.optional(z.url()),
    SES_ENDPOINT: z.optional(z.url()),
    /** The SES configuration set every sign-in email names (its suppression list and events). */
    SES_CONFIGURATION_SET: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/))),
    /** Sign-in emails the whole service sends per clock hour (docs/security.md, Mail reputation); unset: no cap. */
    MAX_CODE_EMAILS_PER_HOUR: z.optional(
      z.pipe(
        z.string().check(z.regex(/^[1-9][0-9]{0,6}$/, 'a whole number from 1 to 9999999')),
        z.transform(Number),
      ),
    ),
    /**
     * Days an audit entry is kept before the table's TTL may delete it (docs/api.md "Audit trail");
     * unset: kept as long as the table. The stack sets it from `auditRetentionDays`.
     */
    AUDIT_RETENTION_DAYS: z.optional(
      z.pipe(
        z.string().check(z.regex(/^[1-9][0-9]{0,4}$/, 'a whole number of days from 1 to 99999')),
        z.transform(Number),
      ),
    ),
    /**
     * Local mode and tests only (the stack never sets it): a client ID metadata document may be
     * fetched from a loopback address (still never from any other special-use address).
     */
    OAUTH_METADATA_ALLOW_LOOPBACK: z._default(
      z.pipe(
        z.enum(['true', 'false']),
        z.transform((value: 'true' | 'false') => value === 'true'),
      ),
      false,
    ),
    /**
     * Local mode and tests only (the stack never sets it): GitHub's web address for social sign-in,
     * with its API under `/api/v3` (GitHub Enterprise Server's layout); github.com when unset.
     */
    SOCIAL_GITHUB_URL: z.optional(z.url({ protocol: /^https$/ })),
    /**
     * Tests: a PEM file of extra certificate authorities trusted when fetching client metadata
     * documents and calling social sign-in providers.
     */
    OAUTH_METADATA_CA_FILE: z.optional(z.string().check(z.minLength(1))),
    LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  })
  .check(
    z.refine((config) => !(config.KMS_KEY_IDS.length > 0 && config.LOCAL_SIGNING_KEY_FILE), {
      message: 'set either KMS_KEY_IDS or LOCAL_SIGNING_KEY_FILE, not both',
      path: ['KMS_KEY_IDS'],
    }),
    z.refine(
      (config) =>
        !(config.SIGNING_KEYS.length > 0 && (config.LOCAL_SIGNING_KEY_FILE || config.KMS_KEY_IDS.length > 0)),
      {
        message: 'set one of SIGNING_KEYS, KMS_KEY_IDS and LOCAL_SIGNING_KEY_FILE',
        path: ['SIGNING_KEYS'],
      },
    ),
    z.refine((config) => !(config.CODE_KEY_SECRET_ARN && config.LOCAL_CODE_KEY_FILE), {
      message: 'set either CODE_KEY_SECRET_ARN or LOCAL_CODE_KEY_FILE, not both',
      path: ['CODE_KEY_SECRET_ARN'],
    }),
    z.refine((config) => !(config.SEALING_KEY_ID && config.LOCAL_SEALING_KEY_FILE), {
      message: 'set either SEALING_KEY_ID or LOCAL_SEALING_KEY_FILE, not both',
      path: ['SEALING_KEY_ID'],
    }),
  );
export type Config = z.infer<typeof Config>;

/** Thrown at start when the environment is incomplete; the message names every bad setting. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Fault injection is local mode's alone (docs/reliability.md, "Faults"): the local server and the chaos
 * harness read these and never pass them on, so a process whose configuration holds one (a deployed
 * function) refuses to start rather than fail calls on purpose.
 */
const LOCAL_ONLY_SETTINGS = ['FAULTS', 'FAULT_SEED'] as const;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const localOnly = LOCAL_ONLY_SETTINGS.filter((name) => env[name] !== undefined);
  if (localOnly.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${localOnly.join(', ')}: fault injection is for local mode only (npm start, npm run chaos)`,
    );
  }
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
