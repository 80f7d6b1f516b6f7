/**
 * The service's limits as the docs show them, from the constants that enforce them: the per-caller
 * rate limits (shared/rate-limit/limits.ts), API Gateway's throttles (shared/routes.ts), and the
 * sizes, counts and lifetimes the domain checks. A region of scripts/docs.ts.
 */
import { MAX_BODY_BYTES } from '../shared/http/body.ts';
import { SESSION_TTL_SECONDS } from '../shared/identity/session-token.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from '../shared/oauth/model.ts';
import { limits } from '../shared/rate-limit/limits.ts';
import { DEFAULT_THROTTLE, FUNCTION_TIMEOUT_SECONDS, routeList } from '../shared/routes.ts';
import { CODE_LENGTH } from '../shared/sign-in/code.ts';
import { CODE_TTL_SECONDS, MAX_ATTEMPTS, POLL_INTERVAL_SECONDS } from '../shared/sign-in/request.ts';
import { SOCIAL_CODE_TTL_MS } from '../shared/social/flow.ts';
import {
  API_KEYS_PER_APPLICATION,
  applicationLimit,
  ORGANIZATIONS_PER_ACCOUNT,
  type Plan,
} from '../shared/tenancy/plans.ts';
import { MAX_IMAGE_BYTES, MAX_IMAGE_URL_CHARS } from '../shared/users/schemas.ts';
import { code, duration, table } from './docs-markdown.ts';

/** Who each rate limit counts and which requests: a record over every limit, so a new one must say. */
const rateLimitScope: Readonly<Record<keyof typeof limits, string>> = {
  startPerIp: '`POST /auth/code/start`, per source IP',
  startPerRecipient:
    '`POST /auth/code/start`, per recipient mailbox in one scope (the platform, or one application)',
  startPerMailbox: '`POST /auth/code/start`, per recipient mailbox across every scope',
  codeCheckPerIp: '`POST /auth/code/verify` and `/approve` together, per source IP',
  pollPerIp: '`POST /auth/code/poll`, per source IP',
  peekPerIp: '`POST /auth/code/peek`, per source IP',
  recentAccountsPerIp: 'the recent-accounts routes, per source IP',
  socialStartPerIp: "social sign-in's start, per source IP",
  socialCallbackPerIp: "social sign-in's provider callback, per source IP",
  socialPagePerIp: "an application's social sign-in page, per source IP",
};

/** Every plan: a record over `Plan`, so a new plan shows here. */
const plans: Readonly<Record<Plan, true>> = { free: true, pro: true, enterprise: true };

const perSecond = ({ rate, burst }: { rate: number; burst: number }) => `${rate}/s, burst ${burst}`;

/** Per-caller rate limits (exact sliding windows in DynamoDB) and API Gateway's throttles per route. */
export function renderRateLimits(): string {
  const rates = table(
    ['Limit', 'Counts', 'At most', 'Window', 'Log bucket'],
    (Object.entries(limits) as Array<[keyof typeof limits, (typeof limits)[keyof typeof limits]]>).map(
      ([name, limit]) => [
        code(name),
        rateLimitScope[name],
        String(limit.max),
        duration(limit.windowSeconds),
        code(limit.bucket),
      ],
    ),
  );
  const throttled = routeList.filter((route) => route.throttle);
  const throttles = table(
    ['Route', 'API Gateway throttle (all callers)'],
    [
      ...throttled.map((route) => [code(`${route.method} ${route.path}`), perSecond(route.throttle!)]),
      ['every other route (the stage default)', perSecond(DEFAULT_THROTTLE)],
    ],
  );
  return [rates, '', throttles].join('\n');
}

/** Sizes, counts and lifetimes, each from the constant the service checks it with. */
export function renderLimits(): string {
  const rows: Array<[string, string]> = [
    [
      'Sign-in code',
      `${CODE_LENGTH} characters, valid ${duration(CODE_TTL_SECONDS)}, ${MAX_ATTEMPTS} attempts`,
    ],
    ['Poll interval (headless sign-in)', duration(POLL_INTERVAL_SECONDS)],
    ['Session token lifetime (`exp`)', duration(SESSION_TTL_SECONDS)],
    ['Social sign-in exchange code', duration(SOCIAL_CODE_TTL_MS / 1000)],
    ['OAuth access token', duration(ACCESS_TOKEN_TTL_SECONDS)],
    ['OAuth authorization code', duration(AUTHORIZATION_CODE_TTL_SECONDS)],
    ['OAuth refresh token (from its issue)', duration(REFRESH_TOKEN_TTL_SECONDS)],
    ['Request body', `${MAX_BODY_BYTES / 1024} KiB`],
    ['Profile image (uploaded)', `${MAX_IMAGE_BYTES / 1024} KiB`],
    ['Profile image URL', `${MAX_IMAGE_URL_CHARS} characters`],
    ['Organizations one account creates', String(ORGANIZATIONS_PER_ACCOUNT)],
    ['Active API keys per application', String(API_KEYS_PER_APPLICATION)],
    ...(Object.keys(plans) as Plan[]).map((plan): [string, string] => [
      `Applications per organization, plan ${code(plan)}`,
      String(applicationLimit(plan) ?? 'no limit'),
    ]),
    ['Function timeout (every route)', duration(FUNCTION_TIMEOUT_SECONDS)],
  ];
  return table(['Limit', 'Value'], rows);
}
