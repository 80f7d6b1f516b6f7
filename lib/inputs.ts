import type { Node } from 'constructs';
import { Config } from '../shared/config.ts';
import type { SenderIdentityMode } from './sender.ts';

/** What an installation chooses. Read from CDK context (`cdk.json` or `-c key=value`). */
export interface DoorcodeInputs {
  /** `serviceName` (default `doorcode`): names the cookie, the key alias and the API. */
  readonly serviceName: string;
  /** `senderEmail` (required): the From address of sign-in emails, verified in SES by the stack. */
  readonly senderEmail: string;
  /** `domain` (optional): the public host name; the issuer is `https://<domain>`, else the API URL. */
  readonly domain?: string;
  /** `certificateArn` (required with `domain`): an ACM certificate for the domain, in the stack's region. */
  readonly certificateArn?: string;
  /** `platformOrigins` (optional): comma-separated browser origins that receive the session cookie. */
  readonly platformOrigins: readonly string[];
  /** `logLevel` (default `info`). */
  readonly logLevel: Config['LOG_LEVEL'];
  /** `alarmTopicArn` (optional): a standard SNS topic that receives the alarms (lib/alarms.ts). */
  readonly alarmTopicArn?: string;
  /** `alarmEmail` (optional): an address subscribed, by email, to a topic of the stack that receives the alarms. */
  readonly alarmEmail?: string;
  /** `dashboard` (default false): the CloudWatch dashboard, $3.00 a month (docs/operations.md). */
  readonly dashboard: boolean;
  /** `tracing` (default false): active AWS X-Ray tracing of every function (lib/route-function.ts). */
  readonly tracing: boolean;
  /**
   * `signingKeys` (optional): the generations of the signing key, a JSON array of
   * `{ "id", "notBefore"?, "notAfter"? }` (ISO 8601 times). Default `[{ "id": "1" }]`: one key
   * that always signs. See lib/signing-key.ts and the rotation runbook in docs/security.md.
   */
  readonly signingKeys?: readonly SigningKeyGeneration[];
  /**
   * `senderIdentity` (default `create`): `existing` uses an SES identity already in the account
   * (the address, or its domain with `domain`) instead of creating one.
   */
  readonly senderIdentity: SenderIdentityMode;
  /**
   * `senderVerification`: `domain` verifies the sender's domain (DKIM records, output by the stack),
   * `address` the single address. Separate from the API's `domain`; its default follows it
   * (`domain` with one, `address` without) so existing stacks keep their identity.
   */
  readonly senderVerification: 'domain' | 'address';
  /** `maxCodeEmailsPerHour` (default 1000): sign-in emails the whole service sends per clock hour. */
  readonly maxCodeEmailsPerHour: number;
  /** `auditRetentionDays` (default none: kept): days before the table's TTL may delete an audit entry. */
  readonly auditRetentionDays?: number;
  /** `logRetentionDays` (default 30): how long the functions' and the API's log groups keep events; a value CloudWatch allows. */
  readonly logRetentionDays: LogRetentionDays;
  /** `lambdaMemoryMb` (default 256): every route function's memory (and with it its CPU share). */
  readonly lambdaMemoryMb: number;
  /**
   * `reservedConcurrency` (optional): reserved concurrent executions of each sign-in-by-code function
   * (the `/auth/code/*` routes), both a guarantee and a ceiling. Absent: none reserved.
   */
  readonly reservedConcurrency?: number;
  /** `terminationProtection` (default true): CloudFormation refuses to delete the stack until it is turned off. */
  readonly terminationProtection: boolean;
  /** `tags` (default none): a JSON object of tags given to the stack and every resource in it. */
  readonly tags: Readonly<Record<string, string>>;
  /**
   * `tableName` (optional): an existing table (a point-in-time restore) the stack uses instead of
   * creating one; it must have the key schema and indexes of shared/store/table.ts.
   */
  readonly tableName?: string;
  /**
   * `tableStreamArn` (with `tableName`, required): the stream of that table (NEW_AND_OLD_IMAGES),
   * which the statistics aggregator reads.
   */
  readonly tableStreamArn?: string;
}

/** The retention periods CloudWatch Logs accepts (PutRetentionPolicy), in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;
export type LogRetentionDays = (typeof LOG_RETENTION_DAYS)[number];
export const DEFAULT_LOG_RETENTION_DAYS: LogRetentionDays = 30;
export const DEFAULT_LAMBDA_MEMORY_MB = 256;
/** Lambda's own bounds for a function's memory. */
export const LAMBDA_MEMORY_MB = { min: 128, max: 10240 } as const;
export const RESERVED_CONCURRENCY = { min: 1, max: 10000 } as const;

/** One generation of the signing key: it signs from `notBefore` until `notAfter`. */
export interface SigningKeyGeneration {
  /** Names the key's construct and alias; `1` is the stack's original key. */
  readonly id: string;
  /** ISO 8601; absent: signs from its creation. Must be at least the JWKS cache period after the deploy that adds it. */
  readonly notBefore?: string;
  /** ISO 8601; absent: signs until a later generation starts. Published for the session lifetime after it. */
  readonly notAfter?: string;
}

const NOT_JSON = Symbol('not JSON');

/**
 * A context value that is JSON: given as text (`-c key='…'`) it is parsed, given as a value (cdk.json)
 * it is taken as it is; text that does not parse is a problem naming `key` and an example.
 */
function jsonContext(value: unknown, key: string, example: string, problems: string[]): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    problems.push(`${key}: not JSON; expected ${example}`);
    return NOT_JSON;
  }
}

const generationId = /^[a-z0-9][a-z0-9-]{0,23}$/;

/** Validates the `signingKeys` context value (JSON text or an array). */
function signingKeysOf(value: unknown, problems: string[]): SigningKeyGeneration[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = jsonContext(
    value,
    'signingKeys',
    '[{"id":"1","notAfter":"…"},{"id":"2","notBefore":"…"}]',
    problems,
  );
  if (parsed === NOT_JSON) return undefined;
  if (!Array.isArray(parsed) || parsed.length === 0) {
    problems.push('signingKeys: expected a non-empty JSON array of { id, notBefore?, notAfter? }');
    return undefined;
  }
  const before = problems.length;
  const seen = new Set<string>();
  const generations: SigningKeyGeneration[] = [];
  for (const entry of parsed as unknown[]) {
    const record = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const id = typeof record.id === 'string' ? record.id : String(record.id ?? '');
    if (!generationId.test(id)) {
      problems.push(`signingKeys: id "${id}" must be 1-24 lowercase letters, digits and hyphens`);
      continue;
    }
    if (seen.has(id)) problems.push(`signingKeys: id "${id}" is declared twice`);
    seen.add(id);
    const times: Record<'notBefore' | 'notAfter', number | undefined> = {
      notBefore: undefined,
      notAfter: undefined,
    };
    for (const name of ['notBefore', 'notAfter'] as const) {
      const raw = record[name];
      if (raw === undefined) continue;
      // With its offset (`Z` or ±hh:mm): a local time would mean another instant on each synth machine.
      const time =
        typeof raw === 'string' &&
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)
          ? Date.parse(raw)
          : Number.NaN;
      if (Number.isNaN(time))
        problems.push(
          `signingKeys: ${id}.${name} "${String(raw)}" is not an ISO 8601 time with an offset (Z or ±hh:mm)`,
        );
      else times[name] = time;
    }
    const { notBefore, notAfter } = times;
    if (notBefore !== undefined && notAfter !== undefined && notAfter <= notBefore) {
      problems.push(`signingKeys: ${id}.notAfter must be later than its notBefore`);
    }
    generations.push({
      id,
      ...(notBefore === undefined ? {} : { notBefore: new Date(notBefore).toISOString() }),
      ...(notAfter === undefined ? {} : { notAfter: new Date(notAfter).toISOString() }),
    });
  }
  if (problems.length === before) {
    const open = generations.filter((generation) => generation.notAfter === undefined);
    if (open.length !== 1) {
      problems.push(
        `signingKeys: exactly one generation must have no notAfter (the key that signs after the others), not ${open.length}`,
      );
    }
    // Two generations without notBefore would both sign from the start: which one would depend on the
    // order they are listed in, and a new key would sign before verifiers' JWKS caches know it.
    const unbounded = generations.filter((generation) => generation.notBefore === undefined);
    if (generations.length > 1 && unbounded.length > 1) {
      problems.push(
        `signingKeys: only the earliest generation may leave out notBefore, not ${unbounded.map((g) => g.id).join(', ')}`,
      );
    }
    // The one without notBefore signs from the deploy: it must be the earliest, ending before the
    // others start (else a later-listed key would sign before verifiers' JWKS caches know it).
    const [sinceDeploy] = unbounded;
    if (generations.length > 1 && unbounded.length === 1 && sinceDeploy) {
      const end =
        sinceDeploy.notAfter === undefined ? Number.POSITIVE_INFINITY : Date.parse(sinceDeploy.notAfter);
      const later = generations.filter(
        (generation) => generation !== sinceDeploy && Date.parse(generation.notBefore ?? '') < end,
      );
      if (later.length > 0) {
        problems.push(
          `signingKeys: generation ${sinceDeploy.id} has no notBefore, so it must be the earliest and end (notAfter) before ${later.map((g) => g.id).join(', ')} start`,
        );
      }
    }
    // No gap: when a generation stops signing, another signs (else no token could be issued).
    const time = (iso: string | undefined, absent: number) => (iso === undefined ? absent : Date.parse(iso));
    for (const ending of generations) {
      if (ending.notAfter === undefined) continue;
      const end = Date.parse(ending.notAfter);
      const successor = generations.some(
        (other) =>
          other !== ending && time(other.notBefore, -Infinity) <= end && end < time(other.notAfter, Infinity),
      );
      if (!successor) {
        problems.push(
          `signingKeys: no generation signs when ${ending.id} stops at ${ending.notAfter}; give the next one that notBefore`,
        );
      }
    }
  }
  return generations;
}

/** Enough for a busy installation, well under a production SES account's first quota (50,000 a day). */
export const DEFAULT_MAX_CODE_EMAILS_PER_HOUR = 1000;
const SENDER_IDENTITY_MODES: readonly SenderIdentityMode[] = ['create', 'existing'];

/** Thrown at synth time; the message names every context key that is missing or wrong. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** A whole number from `min` to `max`, from a number or its text; undefined (with a problem) otherwise. */
function wholeNumber(
  node: Node,
  key: string,
  bounds: { readonly min: number; readonly max: number },
  problems: string[],
): number | undefined {
  const raw = text(node, key);
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    problems.push(`${key}: "${raw}" is not a whole number from ${bounds.min} to ${bounds.max}`);
    return undefined;
  }
  return value;
}

function booleanOf(node: Node, key: string, fallback: boolean, problems: string[]): boolean {
  const raw = text(node, key)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  problems.push(`${key}: "${raw}" is neither true nor false`);
  return fallback;
}

// AWS tag rules (the Resource Groups Tagging API's): keys 1-128 characters, values up to 256, letters,
// numbers, spaces and _ . : / = + - @; the aws: prefix is AWS's own. Resources hold at most 50 tags.
const tagText = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;
const MAX_TAGS = 50;

/** Validates the `tags` context value (a JSON object of strings, as text or an object). */
function tagsOf(value: unknown, problems: string[]): Record<string, string> {
  if (value === undefined || value === null || value === '') return {};
  const parsed = jsonContext(value, 'tags', '{"team":"identity","cost-center":"1234"}', problems);
  if (parsed === NOT_JSON) return {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push('tags: expected a JSON object of tag names and values');
    return {};
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > MAX_TAGS)
    problems.push(`tags: ${entries.length} tags; a resource holds at most ${MAX_TAGS}`);
  const tags: Record<string, string> = {};
  for (const [key, tagValue] of entries) {
    if (typeof tagValue !== 'string') {
      problems.push(`tags: the value of "${key}" must be a string`);
      continue;
    }
    if (key.length < 1 || key.length > 128 || !tagText.test(key)) {
      problems.push(`tags: "${key}" is not a tag key (1-128 letters, digits, spaces and _ . : / = + - @)`);
    } else if (key.toLowerCase().startsWith('aws:')) {
      problems.push(`tags: "${key}" uses the aws: prefix, which AWS keeps for itself`);
    } else if (tagValue.length > 256 || !tagText.test(tagValue)) {
      problems.push(
        `tags: the value of "${key}" is not a tag value (0-256 letters, digits, spaces and _ . : / = + - @)`,
      );
    } else {
      tags[key] = tagValue;
    }
  }
  return tags;
}

/** DynamoDB's rule for table names. */
const dynamoTableName = /^[A-Za-z0-9_.-]{3,255}$/;

const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
// CloudWatch alarms cannot publish to FIFO topics.
const snsTopic = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/;
const certificate = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/;

function text(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null) return undefined;
  const trimmed = String(value).trim();
  return trimmed.length > 0 ? trimmed : undefined;
}

function list(node: Node, key: string): string[] {
  const value: unknown = node.tryGetContext(key);
  const items = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',');
  return items.map((item) => item.trim()).filter((item) => item.length > 0);
}

/**
 * The origin a value names, or undefined. A trailing slash (`https://app.example/`, as an address bar
 * shows it) and upper case in the scheme or host are normalised away, since a browser's `Origin` header
 * has neither; a path, query, fragment, credentials or a default port written out are refused.
 */
function toOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return value.replace(/\/$/, '').toLowerCase() === url.origin.toLowerCase() ? url.origin : undefined;
}

/** Reads and validates the installation's context values with the runtime's own config rules. */
export function readInputs(node: Node): DoorcodeInputs {
  const problems: string[] = [];

  const serviceName = text(node, 'serviceName') ?? 'doorcode';
  const service = Config.shape.SERVICE_NAME.safeParse(serviceName);
  if (!service.success) problems.push(`serviceName: ${service.error.issues[0]?.message}`);

  const senderEmail = text(node, 'senderEmail');
  if (!senderEmail) {
    problems.push(
      'senderEmail: missing; the address sign-in emails are sent from (pass -c senderEmail=no-reply@your-domain.example or set it in cdk.json "context")',
    );
  } else if (!Config.shape.MAIL_FROM.safeParse(senderEmail).success) {
    problems.push(`senderEmail: "${senderEmail}" is not an email address`);
  }

  const domain = text(node, 'domain')?.toLowerCase();
  if (domain && !hostname.test(domain)) problems.push(`domain: "${domain}" is not a host name`);

  const certificateArn = text(node, 'certificateArn');
  if (domain && !certificateArn) {
    problems.push('certificateArn: required with domain (an ACM certificate for it, in the stack region)');
  } else if (certificateArn && !certificate.test(certificateArn)) {
    problems.push(`certificateArn: "${certificateArn}" is not an ACM certificate ARN`);
  } else if (certificateArn && !domain) {
    problems.push('certificateArn: only used with domain; set domain or remove certificateArn');
  }

  const platformOrigins: string[] = [];
  for (const value of list(node, 'platformOrigins')) {
    const origin = toOrigin(value);
    if (!origin) problems.push(`platformOrigins: "${value}" is not an origin like https://app.example`);
    else if (!platformOrigins.includes(origin)) platformOrigins.push(origin);
  }

  const logLevel = Config.shape.LOG_LEVEL.safeParse(text(node, 'logLevel'));
  if (!logLevel.success) problems.push(`logLevel: ${logLevel.error.issues[0]?.message}`);
  // `silent` is for tests: it also drops the metric lines, so the service's alarms could never fire.
  else if (logLevel.data === 'silent') {
    problems.push(
      'logLevel: "silent" is a local setting; a deployed stack needs its metric lines (use error)',
    );
  }

  const alarmTopicArn = text(node, 'alarmTopicArn');
  if (alarmTopicArn && !snsTopic.test(alarmTopicArn)) {
    problems.push(`alarmTopicArn: "${alarmTopicArn}" is not the ARN of a standard SNS topic`);
  }
  const alarmEmail = text(node, 'alarmEmail');
  if (alarmEmail && !Config.shape.MAIL_FROM.safeParse(alarmEmail).success) {
    problems.push(`alarmEmail: "${alarmEmail}" is not an email address`);
  }
  const signingKeys = signingKeysOf(node.tryGetContext('signingKeys'), problems);

  const senderIdentity = (text(node, 'senderIdentity') ?? 'create') as SenderIdentityMode;
  if (!SENDER_IDENTITY_MODES.includes(senderIdentity)) {
    problems.push(
      `senderIdentity: "${senderIdentity}" is neither create (the stack creates the SES identity) nor existing (it is already in the account)`,
    );
  }

  const verification = text(node, 'senderVerification') ?? (domain ? 'domain' : 'address');
  if (verification !== 'domain' && verification !== 'address') {
    problems.push(
      `senderVerification: "${verification}" is neither domain (verify the sender's domain with DKIM) nor address (verify the one address)`,
    );
  }

  const cap = Config.shape.MAX_CODE_EMAILS_PER_HOUR.safeParse(
    text(node, 'maxCodeEmailsPerHour') ?? String(DEFAULT_MAX_CODE_EMAILS_PER_HOUR),
  );
  if (!cap.success) problems.push(`maxCodeEmailsPerHour: ${cap.error.issues[0]?.message}`);

  const auditText = text(node, 'auditRetentionDays');
  const auditRetention =
    auditText === undefined ? undefined : Config.shape.AUDIT_RETENTION_DAYS.safeParse(auditText);
  if (auditRetention && !auditRetention.success) {
    problems.push(`auditRetentionDays: "${auditText}" is not ${auditRetention.error.issues[0]?.message}`);
  }

  const retentionText = text(node, 'logRetentionDays');
  const logRetentionDays = (
    retentionText === undefined
      ? DEFAULT_LOG_RETENTION_DAYS
      : /^\d+$/.test(retentionText)
        ? Number(retentionText)
        : Number.NaN
  ) as LogRetentionDays;
  if (!(LOG_RETENTION_DAYS as readonly number[]).includes(logRetentionDays)) {
    problems.push(
      `logRetentionDays: "${retentionText}" is not a retention CloudWatch Logs allows (${LOG_RETENTION_DAYS.join(', ')})`,
    );
  }
  const lambdaMemoryMb = wholeNumber(node, 'lambdaMemoryMb', LAMBDA_MEMORY_MB, problems);
  const reservedConcurrency = wholeNumber(node, 'reservedConcurrency', RESERVED_CONCURRENCY, problems);
  const terminationProtection = booleanOf(node, 'terminationProtection', true, problems);
  const dashboard = booleanOf(node, 'dashboard', false, problems);
  const tracing = booleanOf(node, 'tracing', false, problems);
  const tags = tagsOf(node.tryGetContext('tags'), problems);
  const tableName = text(node, 'tableName');
  if (tableName !== undefined && !dynamoTableName.test(tableName)) {
    problems.push(`tableName: "${tableName}" is not a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -)`);
  }
  const tableStreamArn = text(node, 'tableStreamArn');
  if (tableName !== undefined && tableStreamArn === undefined) {
    problems.push(
      `tableStreamArn: missing; with tableName, give the ARN of that table's stream (NEW_AND_OLD_IMAGES), which the statistics aggregator reads`,
    );
  }
  const streamOf = tableStreamArn?.match(
    /^arn:aws[\w-]*:dynamodb:[\w-]+:\d{12}:table\/([\w.-]+)\/stream\/[\w:.-]+$/,
  );
  if (tableStreamArn !== undefined && !streamOf) {
    problems.push(`tableStreamArn: "${tableStreamArn}" is not the ARN of a DynamoDB stream`);
  }
  if (streamOf && tableName !== undefined && streamOf[1] !== tableName) {
    problems.push(`tableStreamArn: the stream of table ${streamOf[1]}, not of tableName ${tableName}`);
  }
  if (tableStreamArn !== undefined && tableName === undefined) {
    problems.push("tableStreamArn: only with tableName (the stack's own table has its own stream)");
  }

  if (problems.length > 0 || !senderEmail || !logLevel.success || !cap.success) {
    throw new InputError(`Invalid CDK context:\n  ${problems.join('\n  ')}`);
  }
  return {
    serviceName,
    senderEmail,
    ...(domain ? { domain, certificateArn } : {}),
    platformOrigins,
    logLevel: logLevel.data,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    dashboard,
    tracing,
    ...(signingKeys ? { signingKeys } : {}),
    senderIdentity,
    senderVerification: verification as 'domain' | 'address',
    maxCodeEmailsPerHour: cap.data ?? DEFAULT_MAX_CODE_EMAILS_PER_HOUR,
    ...(auditRetention?.data ? { auditRetentionDays: auditRetention.data } : {}),
    logRetentionDays,
    lambdaMemoryMb: lambdaMemoryMb ?? DEFAULT_LAMBDA_MEMORY_MB,
    ...(reservedConcurrency === undefined ? {} : { reservedConcurrency }),
    terminationProtection,
    tags,
    ...(tableName ? { tableName } : {}),
    ...(tableStreamArn ? { tableStreamArn } : {}),
  };
}
