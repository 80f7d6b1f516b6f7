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
  /**
   * `senderIdentity` (default `create`): `existing` uses an SES identity already in the account
   * (the address, or its domain with `domain`) instead of creating one.
   */
  readonly senderIdentity: SenderIdentityMode;
  /** `maxCodeEmailsPerHour` (default 1000): sign-in emails the whole service sends per clock hour. */
  readonly maxCodeEmailsPerHour: number;
}

/** Enough for a busy installation, well under a production SES account's first quota (50,000 a day). */
export const DEFAULT_MAX_CODE_EMAILS_PER_HOUR = 1000;
const SENDER_IDENTITY_MODES: readonly SenderIdentityMode[] = ['create', 'existing'];

/** Thrown at synth time; the message names every context key that is missing or wrong. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
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

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
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

  const platformOrigins = list(node, 'platformOrigins');
  for (const origin of platformOrigins) {
    if (!isOrigin(origin))
      problems.push(`platformOrigins: "${origin}" is not an origin like https://app.example`);
  }

  const logLevel = Config.shape.LOG_LEVEL.safeParse(text(node, 'logLevel'));
  if (!logLevel.success) problems.push(`logLevel: ${logLevel.error.issues[0]?.message}`);

  const senderIdentity = (text(node, 'senderIdentity') ?? 'create') as SenderIdentityMode;
  if (!SENDER_IDENTITY_MODES.includes(senderIdentity)) {
    problems.push(
      `senderIdentity: "${senderIdentity}" is neither create (the stack creates the SES identity) nor existing (it is already in the account)`,
    );
  }

  const cap = Config.shape.MAX_CODE_EMAILS_PER_HOUR.safeParse(
    text(node, 'maxCodeEmailsPerHour') ?? String(DEFAULT_MAX_CODE_EMAILS_PER_HOUR),
  );
  if (!cap.success) problems.push(`maxCodeEmailsPerHour: ${cap.error.issues[0]?.message}`);

  if (problems.length > 0 || !senderEmail || !logLevel.success || !cap.success) {
    throw new InputError(`Invalid CDK context:\n  ${problems.join('\n  ')}`);
  }
  return {
    serviceName,
    senderEmail,
    ...(domain ? { domain, certificateArn } : {}),
    platformOrigins,
    logLevel: logLevel.data,
    senderIdentity,
    maxCodeEmailsPerHour: cap.data ?? DEFAULT_MAX_CODE_EMAILS_PER_HOUR,
  };
}
