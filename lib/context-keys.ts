import {
  DEFAULT_LAMBDA_MEMORY_MB,
  DEFAULT_LOG_RETENTION_DAYS,
  DEFAULT_MAX_CODE_EMAILS_PER_HOUR,
  type DoorcodeInputs,
  LAMBDA_MEMORY_MB,
  LOG_RETENTION_DAYS,
  RESERVED_CONCURRENCY,
} from './inputs.ts';

/** A context key (`-c key=value` or cdk.json `"context"`): its value when left out, and what it sets. */
type ContextKey =
  | { readonly default: string | number | boolean; readonly meaning: string }
  /** No single default: `absent` says what happens without the key (`required`, or what applies). */
  | { readonly absent: string; readonly meaning: string };

/**
 * Every input of lib/inputs.ts `readInputs`, as docs/deploy.md's table shows it (npm run docs). A
 * record over every key of `DoorcodeInputs`: a new input does not compile until it is listed, and
 * test/unit/generated-docs.test.ts checks each `default` is what `readInputs` gives without the key.
 */
export const contextKeys = {
  senderEmail: {
    absent: 'required',
    meaning:
      'the From address of sign-in emails; the stack creates its SES identity unless `senderIdentity=existing`',
  },
  serviceName: {
    default: 'doorcode',
    meaning:
      'lowercase name of the cookie (`<serviceName>.session_token`), the KMS alias, the API and the stack (`acme-auth` → `AcmeAuthStack`)',
  },
  domain: {
    absent: 'the API Gateway URL',
    meaning:
      "the API's custom domain, with `certificateArn`; the token issuer becomes `https://<domain>` and the `execute-api` endpoint is turned off",
  },
  certificateArn: {
    absent: 'required with `domain`',
    meaning: "an ACM certificate for `domain`, in the stack's Region",
  },
  platformOrigins: {
    absent: 'none',
    meaning:
      'comma-separated browser origins (`https://app.example`) that receive the session cookie; a trailing slash and upper case are normalised away, a path is refused',
  },
  logLevel: {
    default: 'info',
    meaning:
      'function log level: `debug`, `info`, `warn` or `error` (metric lines are written whatever it says)',
  },
  alarmEmail: {
    absent: 'no email (synth warns when no alarm destination is set)',
    meaning:
      'an address the stack subscribes to an SNS topic of its own that receives every alarm and its return to OK; SNS mails it a link to confirm first',
  },
  alarmTopicArn: {
    absent: 'none (synth warns when no alarm destination is set)',
    meaning:
      "an existing standard SNS topic in the stack's Region that receives every alarm and its return to OK (with `alarmEmail` too: both do)",
  },
  dashboard: {
    default: false,
    meaning: 'the CloudWatch dashboard of every metric, $3.00 a month (docs/operations.md, "Dashboard")',
  },
  tracing: {
    default: false,
    meaning: 'active AWS X-Ray tracing of every function; X-Ray bills per trace recorded and read',
  },
  signingKeys: {
    absent: 'one key, generation `1`',
    meaning:
      'the signing key generations, a JSON array of `{ "id", "notBefore"?, "notAfter"? }` (ISO 8601 times with an offset): one retained KMS key each',
  },
  senderIdentity: {
    default: 'create',
    meaning:
      '`create`: the stack creates the SES identity and retains it on `cdk destroy`; `existing`: it is already in the account and Region',
  },
  senderVerification: {
    absent: '`domain` with a `domain`, else `address`',
    meaning:
      'how SES verifies the sender: `domain` the part of `senderEmail` after `@`, by DKIM records the stack outputs; `address` the one address, by a link SES mails to it',
  },
  maxCodeEmailsPerHour: {
    default: DEFAULT_MAX_CODE_EMAILS_PER_HOUR,
    meaning:
      'the most sign-in emails the whole service sends per clock hour (UTC); beyond it start answers 429 `RATE_LIMITED` (`mail_cap`) until the hour turns',
  },
  auditRetentionDays: {
    absent: 'entries are kept',
    meaning: "days before the table's TTL may delete an audit entry, a whole number from 1 to 99999",
  },
  logRetentionDays: {
    default: DEFAULT_LOG_RETENTION_DAYS,
    meaning: `how long the functions' shared log group and the API's access log keep events: one of the retentions CloudWatch Logs accepts (${LOG_RETENTION_DAYS.join(', ')}); any other is refused at synth`,
  },
  lambdaMemoryMb: {
    default: DEFAULT_LAMBDA_MEMORY_MB,
    meaning: `memory of every route function (and with it its CPU share), a whole number from ${LAMBDA_MEMORY_MB.min} to ${LAMBDA_MEMORY_MB.max}`,
  },
  reservedConcurrency: {
    absent: 'none reserved',
    meaning: `reserved concurrent executions of each sign-in-by-code function (the \`/auth/code/*\` routes), from ${RESERVED_CONCURRENCY.min} to ${RESERVED_CONCURRENCY.max}: both a floor and a ceiling`,
  },
  terminationProtection: {
    default: true,
    meaning: 'CloudFormation termination protection: `cdk destroy` fails until it is turned off',
  },
  tags: {
    absent: 'none',
    meaning: 'a JSON object of tags set on the stack and every taggable resource in it (at most 50)',
  },
  tableName: {
    absent: 'the stack creates the table',
    meaning:
      "an existing table (a point-in-time restore) to run against instead of the stack's own; it needs the key schema and indexes of `shared/store/table.ts`",
  },
  tableStreamArn: {
    absent: 'none; required with `tableName`',
    meaning:
      "the ARN of the existing table's stream (`NEW_AND_OLD_IMAGES`), which the statistics aggregator reads (docs/data-model.md, Statistics)",
  },
} as const satisfies Readonly<Record<keyof DoorcodeInputs, ContextKey>>;
