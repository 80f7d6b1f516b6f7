import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import {
  type ImpersonationAuditEntry,
  readAuditPage,
  type SocialSignInAuditEntry,
  type SocialSignInChange,
  type StoredAuditEntry,
} from '../store/audit.ts';

/**
 * An application's audit trail (issue 8, issue 12): append-only entries, written only inside the
 * transaction of the event they record (shared/store/impersonations.ts, shared/store/configuration.ts),
 * never changed or deleted by any route.
 */
export type AuditAction = StoredAuditEntry['action'];

/** The entry of `action`, and its own fields: without the id, action and time every entry gets. */
type EntryOf<A extends AuditAction> = A extends SocialSignInAuditEntry['action']
  ? SocialSignInAuditEntry
  : ImpersonationAuditEntry;
// Distributed over a union of actions, so a caller can never pass fewer fields than one entry needs.
type EventOf<A extends AuditAction> = A extends AuditAction
  ? Omit<EntryOf<A>, 'id' | 'action' | 'at'>
  : never;

/** A new entry of `action`, at the request's time. */
export function auditEntry<A extends AuditAction>(deps: Deps, action: A, event: EventOf<A>): EntryOf<A> {
  const entry = {
    id: newId(deps.random, 'evt'),
    action,
    at: new Date(deps.clock.now()).toISOString(),
    ...event,
  };
  return entry as unknown as EntryOf<A>;
}

/** An entry as `GET /applications/{applicationId}/audit` lists it: the fields of its action. */
function auditView(item: Record<string, unknown>) {
  const common = {
    id: item.id as string,
    at: item.at as string,
    applicationId: item.applicationId as string,
    actor: { userId: item.actorId as string, email: item.actorEmail as string },
  };
  switch (item.action) {
    case 'socialSignIn.changed':
      return { ...common, action: item.action, changes: item.changes as SocialSignInChange[] };
    case 'impersonation.started':
    case 'impersonation.ended':
      return {
        ...common,
        action: item.action,
        userId: item.userId as string,
        impersonationId: item.impersonationId as string,
        reason: item.reason as string,
      };
    default:
      throw new Error(`audit entry ${String(item.id)} has an unknown action ${String(item.action)}`);
  }
}

/** The trail of an application, newest first, one page (SPEC §2 Page). */
export async function listAudit(deps: Deps, applicationId: string, page: { limit: number; offset: number }) {
  const { total, items } = await readAuditPage(deps.db, applicationId, page);
  return {
    items: items.map(auditView),
    page: { ...page, total, hasMore: page.offset + items.length < total },
  };
}
