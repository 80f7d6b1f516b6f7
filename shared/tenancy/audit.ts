import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import {
  type AuditChange,
  type AuditEntryRecord,
  type AuditQuery,
  type AuditValue,
  type ChangeAuditEntry,
  type ImpersonationAuditEntry,
  queryAuditTrail,
  type SocialSignInAuditEntry,
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

/** When and under which id a new entry is written, and how long it is kept. */
const stamped = (deps: Deps) => ({
  id: newId(deps.random, 'evt'),
  at: new Date(deps.clock.now()).toISOString(),
  ...retention(deps),
});

/** A new impersonation entry of `action`, at the request's time (their shape predates the change entries). */
export function impersonationEntry(
  deps: Deps,
  action: ImpersonationAuditEntry['action'],
  event: Omit<ImpersonationAuditEntry, 'id' | 'action' | 'at'>,
): ImpersonationAuditEntry {
  const { id, at, ...kept } = stamped(deps);
  return { id, action, at, ...kept, ...event };
}

/** A new social sign-in entry, at the request's time (its shape predates the change entries). */
export function socialSignInEntry(
  deps: Deps,
  event: Omit<SocialSignInAuditEntry, 'id' | 'action' | 'at'>,
): SocialSignInAuditEntry {
  const { id, at, ...kept } = stamped(deps);
  return { id, action: 'socialSignIn.changed', at, ...kept, ...event };
}

const actorView = (entry: AuditEntryRecord): AuditActor => {
  switch (entry.actorKind) {
    case 'key':
      return { kind: 'key', keyId: entry.actorId, prefix: entry.actorPrefix ?? '' };
    case 'service':
      return { kind: 'service' };
    default:
      return { kind: 'user', userId: entry.actorId, email: entry.actorEmail ?? '' };
  }
};

/** The fields an entry holds only sometimes, shown only where it holds them. */
type Optional = 'organizationId' | 'applicationId' | 'userId' | 'impersonationId' | 'reason' | 'cause';

/** An entry as the trail routes list it (shared/contracts/audit.ts `AuditEntry`). */
function auditView(entry: AuditEntryRecord, action: AuditAction) {
  const rule = auditActions[action];
  const optional = <Name extends Optional>(name: Name) => {
    const value = entry[name];
    return value === undefined ? {} : ({ [name]: value } as { [Key in Name]: string });
  };
  const legacyTarget =
    entry.impersonationId !== undefined
      ? { type: 'user' as const, id: String(entry.userId), label: null }
      : { type: 'configuration' as const, id: String(entry.applicationId), label: null };
  return {
    id: entry.id,
    action,
    at: entry.at,
    ...optional('organizationId'),
    ...optional('applicationId'),
    actor: actorView(entry),
    target:
      entry.targetId !== undefined
        ? {
            type: entry.targetType as typeof rule.target,
            id: entry.targetId,
            label: entry.targetLabel ?? null,
          }
        : legacyTarget,
    changes: entry.changes ?? [],
    request: entry.ip !== undefined ? { ip: entry.ip, userAgent: entry.userAgent ?? '' } : null,
    ...optional('userId'),
    ...optional('impersonationId'),
    ...optional('reason'),
    ...optional('cause'),
  };
}

/** The entry's action, when this version knows it. */
const knownAction = (entry: AuditEntryRecord): AuditAction | undefined =>
  entry.action in auditActions ? (entry.action as AuditAction) : undefined;

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
  // An entry of an action this version does not know (written by a newer one, or retired), or whose
  // fields it cannot read, is left out and logged, rather than failing the whole page.
  const readable = page.items.flatMap((entry) => ('unreadable' in entry ? [] : [entry]));
  const unknown = page.items.filter((entry) => 'unreadable' in entry || knownAction(entry) === undefined);
  if (unknown.length > 0) {
    deps.logger.log('warn', 'audit entries of unknown actions or fields left out', {
      actions: [...new Set(unknown.map((entry) => entry.action))],
    });
  }
  return {
    items: readable.flatMap((entry) => {
      const action = knownAction(entry);
      return action === undefined ? [] : [auditView(entry, action)];
    }),
    page: {
      limit: query.limit,
      hasMore: page.next !== null,
      nextCursor: page.next === null ? null : Buffer.from(page.next, 'utf8').toString('base64url'),
    },
  };
}
