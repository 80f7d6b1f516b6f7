import * as z from 'zod/mini';
import { AUDIT_CURSOR } from '../store/keys.ts';
import { AUDIT_ACTIONS, type AuditTargetType, auditActions } from '../tenancy/audit-actions.ts';

const TARGET_TYPES = [...new Set(Object.values(auditActions).map((rule) => rule.target))] as [
  AuditTargetType,
  ...AuditTargetType[],
];

/** A page's cursor: the base64url of the last entry's sort key, refused unless it is one. */
const Cursor = z.pipe(
  z.string().check(z.regex(/^[A-Za-z0-9_-]{1,200}$/, 'not a cursor this trail gave')),
  z.pipe(
    z.transform((cursor: string) => Buffer.from(cursor, 'base64url').toString('utf8')),
    z.string().check(z.regex(AUDIT_CURSOR, 'not a cursor this trail gave')),
  ),
);

/** An ISO 8601 time with its offset, read as UTC milliseconds (the entries' own form). */
const Instant = z.pipe(
  z.iso.datetime({ offset: true }),
  z.pipe(
    z.transform((time: string) => new Date(time).toISOString()),
    // An offset can carry 9999-12-31 past the year 10000, whose `+010000` form sorts wrong.
    z.string().check(z.regex(/^\d{4}-/, 'a time before the year 10000')),
  ),
);

const Limit = z._default(
  z
    .pipe(
      z.string().check(z.regex(/^\d{1,3}$/, 'a whole number')),
      z.transform((text: string) => Number(text)),
    )
    .check(z.minimum(1), z.maximum(100)),
  20,
);

/**
 * `GET …/audit`: a page size, the previous page's cursor, and filters (all optional, combined with
 * AND). Strict: `offset`, which these routes took before cursors, is refused by name rather than
 * ignored (an old client paging by offset would get the first page for ever).
 */
export const AuditQuery = z
  .strictObject({
    limit: Limit,
    cursor: z.optional(Cursor),
    action: z.optional(z.enum(AUDIT_ACTIONS)),
    actor: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    target: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    since: z.optional(Instant),
    until: z.optional(Instant),
  })
  .check(
    z.refine((query) => !query.since || !query.until || query.since <= query.until, {
      message: 'since is after until',
      path: ['since'],
    }),
  );

const AuditActor = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string(), email: z.string() }),
  z.object({ kind: z.literal('key'), keyId: z.string(), prefix: z.string() }),
  z.object({ kind: z.literal('service') }),
]);

/** A value before or after a change; a secret only as `set` or `new secret`. */
const AuditValue = z.nullable(z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]));

/** One entry of a trail: who did what to which target, when, from where, and what changed. */
const AuditEntry = z.object({
  id: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  at: z.string(),
  organizationId: z.optional(z.string()),
  applicationId: z.optional(z.string()),
  actor: AuditActor,
  target: z.object({ type: z.enum(TARGET_TYPES), id: z.string(), label: z.nullable(z.string()) }),
  changes: z.array(z.object({ path: z.string(), from: AuditValue, to: AuditValue })),
  /** The request that made the change; null on entries written before requests were kept. */
  request: z.nullable(z.object({ ip: z.string(), userAgent: z.string() })),
  /** Impersonation entries: the end user, the impersonation, the support user's reason, and what ended it. */
  userId: z.optional(z.string()),
  impersonationId: z.optional(z.string()),
  reason: z.optional(z.string()),
  cause: z.optional(z.string()),
});

export const AuditList = z.object({
  items: z.array(AuditEntry),
  page: z.object({ limit: z.int(), hasMore: z.boolean(), nextCursor: z.nullable(z.string()) }),
});
