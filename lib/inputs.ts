import type { Node } from 'constructs';
import { Config } from '../shared/config.ts';

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
}

/** Thrown at synth time; the message names every context key that is missing or wrong. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

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

  const alarmTopicArn = text(node, 'alarmTopicArn');
  if (alarmTopicArn && !snsTopic.test(alarmTopicArn)) {
    problems.push(`alarmTopicArn: "${alarmTopicArn}" is not the ARN of a standard SNS topic`);
  }

  if (problems.length > 0 || !senderEmail || !logLevel.success) {
    throw new InputError(`Invalid CDK context:\n  ${problems.join('\n  ')}`);
  }
  return {
    serviceName,
    senderEmail,
    ...(domain ? { domain, certificateArn } : {}),
    platformOrigins,
    logLevel: logLevel.data,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
  };
}
