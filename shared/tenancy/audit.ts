import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import {
  type AuditChange,
  type AuditQuery,
  type AuditValue,
  type ChangeAuditEntry,
  type ImpersonationAuditEntry,
  queryAuditTrail,
  type SocialSignInAuditEntry,
  type StoredAuditEntry,
} from '../store/audit.ts';
import { keptUserAgent } from '../user-agent.ts';
import { type AuditAction, auditActions, type ChangeAction } from './audit-actions.ts';

/**
 * The audit trails (docs/api.md "Audit trail"): append-only entries, each written only inside the
 * transaction of the change it records, never changed or deleted by any route.
 */

/** Who made a change, as an entry names it. */
type AuditActor =
  | { kind: 'user'; userId: string; email: string }
  | { kind: 'key'; keyId: string; prefix: string }
  | { kind: 'service' };

/** What the chain knows of a management request that may change state: who, and from where. */
export interface AuditRequest {
  readonly actor: AuditActor;
  readonly ip: string;
  readonly userAgent: string;
}

/** The service itself, for what it does on a request's behalf (an origin learned from a key's request). */
export const serviceRequest = (client: { ip: string; userAgent: string }): AuditRequest => ({
  actor: { kind: 'service' },
  ip: client.ip,
  userAgent: keptUserAgent(client.userAgent),
});

const storedActor = (actor: AuditActor) => {
  switch (actor.kind) {
    case 'user':
      return { actorKind: 'user' as const, actorId: actor.userId, actorEmail: actor.email };
    case 'key':
      return { actorKind: 'key' as const, actorId: actor.keyId, actorPrefix: actor.prefix };
    case 'service':
      return { actorKind: 'service' as const, actorId: 'service' };
  }
};

/**
 * The table's TTL attribute of a new entry when the deployment limits how long entries are kept
 * (`auditRetentionDays`); none by default: entries stay as long as the table.
 */
const retention = (deps: Deps): { expiresAt?: number } => {
  const days = deps.config.AUDIT_RETENTION_DAYS;
  return days ? { expiresAt: Math.floor(deps.clock.now() / 1000) + days * 24 * 3600 } : {};
};

/** What changed, and where: the ids of the organization and the application it concerns. */
export interface ChangeEvent {
  organizationId?: string;
  applicationId?: string;
  targetId: string;
  targetLabel?: string;
  changes?: AuditChange[];
}

/** The entry of one change of `action`, at the request's time, on the action's trail. */
export function changeEntry(
  deps: Deps,
  request: AuditRequest,
  action: ChangeAction,
  event: ChangeEvent,
): ChangeAuditEntry {
  const rule = auditActions[action];
  const trail = rule.trail === 'organization' ? event.organizationId : event.applicationId;
  if (!trail) throw new Error(`${action} needs its ${rule.trail}'s id`);
  return {
    id: newId(deps.random, 'evt'),
    action,
    at: new Date(deps.clock.now()).toISOString(),
    trail,
    ...(event.organizationId ? { organizationId: event.organizationId } : {}),
    ...(event.applicationId ? { applicationId: event.applicationId } : {}),
    ...storedActor(request.actor),
    ip: request.ip,
    userAgent: request.userAgent,
    ...retention(deps),
    targetType: rule.target,
    targetId: event.targetId,
    ...(event.targetLabel !== undefined ? { targetLabel: event.targetLabel } : {}),
    ...(event.changes ? { changes: event.changes } : {}),
  };
}

/** The fields of `before` and `after` that differ, under `paths` (nested objects by dotted path). */
export function changesBetween(before: object, after: object, paths: readonly string[]): AuditChange[] {
  return paths.flatMap((path) => {
    const from = valueAt(before, path);
    const to = valueAt(after, path);
    return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ path, from, to }];
  });
}

/** The value at a dotted path, as an entry shows it (null: none; a nested object as JSON text). */
export function valueAt(record: object, path: string): AuditValue {
  let value: unknown = record;
  for (const part of path.split('.')) {
    value =
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  return JSON.stringify(value);
}

/** The impersonation and social sign-in entries, whose shapes predate the change entries. */
type LegacyEntry = ImpersonationAuditEntry | SocialSignInAuditEntry;
type EntryOf<A extends LegacyEntry['action']> = A extends SocialSignInAuditEntry['action']
  ? SocialSignInAuditEntry
  : ImpersonationAuditEntry;
// Distributed over a union of actions, so a caller can never pass fewer fields than one entry needs.
type EventOf<A extends LegacyEntry['action']> = A extends LegacyEntry['action']
  ? Omit<EntryOf<A>, 'id' | 'action' | 'at'>
  : never;

/** A new impersonation or social sign-in entry of `action`, at the request's time. */
export function auditEntry<A extends LegacyEntry['action']>(
  deps: Deps,
  action: A,
  event: EventOf<A>,
): EntryOf<A> {
  const entry = {
    id: newId(deps.random, 'evt'),
    action,
    at: new Date(deps.clock.now()).toISOString(),
    ...retention(deps),
    ...event,
  };
  return entry as unknown as EntryOf<A>;
}

const actorView = (item: Record<string, unknown>): AuditActor => {
  switch (item.actorKind) {
    case 'key':
      return {
        kind: 'key',
        keyId: item.actorId as string,
        prefix: (item.actorPrefix as string | undefined) ?? '',
      };
    case 'service':
      return { kind: 'service' };
    default:
      return {
        kind: 'user',
        userId: item.actorId as string,
        email: (item.actorEmail as string | undefined) ?? '',
      };
  }
};

/** An entry as the trail routes list it (shared/contracts/audit.ts `AuditEntry`). */
function auditView(item: Record<string, unknown>) {
  const action = item.action as AuditAction;
  const rule = auditActions[action];
  if (!rule) throw new Error(`audit entry ${String(item.id)} has an unknown action ${String(item.action)}`);
  const optional = (name: string) => (typeof item[name] === 'string' ? { [name]: item[name] as string } : {});
  const entry = item as unknown as StoredAuditEntry;
  const legacyTarget =
    'impersonationId' in entry
      ? { type: 'user' as const, id: entry.userId, label: null }
      : { type: 'configuration' as const, id: String(item.applicationId), label: null };
  return {
    id: item.id as string,
    action,
    at: item.at as string,
    ...optional('organizationId'),
    ...optional('applicationId'),
    actor: actorView(item),
    target:
      typeof item.targetId === 'string'
        ? {
            type: item.targetType as typeof rule.target,
            id: item.targetId,
            label: (item.targetLabel as string | undefined) ?? null,
          }
        : legacyTarget,
    changes: (item.changes as AuditChange[] | undefined) ?? [],
    request:
      typeof item.ip === 'string' ? { ip: item.ip, userAgent: (item.userAgent as string) ?? '' } : null,
    ...optional('userId'),
    ...optional('impersonationId'),
    ...optional('reason'),
    ...optional('cause'),
  };
}

/** What a reader sends (shared/contracts/audit.ts `AuditQuery`): `cursor` is already the sort key it encodes. */
export interface AuditListQuery extends Omit<AuditQuery, 'after' | 'now'> {
  cursor?: string;
}

/** A trail, newest first, one page: `nextCursor` continues it, null at its end. */
export async function listAudit(deps: Deps, trail: string, query: AuditListQuery) {
  const { cursor, ...filters } = query;
  const page = await queryAuditTrail(deps.db, trail, {
    ...filters,
    now: Math.floor(deps.clock.now() / 1000),
    ...(cursor !== undefined ? { after: cursor } : {}),
  });
  // An entry of an action this version does not know (written by a newer one, or retired) is left
  // out and logged, rather than failing the whole page.
  const unknown = page.items.filter((item) => !(String(item.action) in auditActions));
  if (unknown.length > 0) {
    deps.logger.log('warn', 'audit entries of unknown actions left out', {
      actions: [...new Set(unknown.map((item) => String(item.action)))],
    });
  }
  return {
    items: page.items.filter((item) => String(item.action) in auditActions).map(auditView),
    page: {
      limit: query.limit,
      hasMore: page.next !== null,
      nextCursor: page.next === null ? null : Buffer.from(page.next, 'utf8').toString('base64url'),
    },
  };
}
