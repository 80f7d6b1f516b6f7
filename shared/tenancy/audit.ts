import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import { readAuditPage, type StoredAuditEntry } from '../store/audit.ts';

/**
 * An application's audit trail (issue 8): append-only entries, written only inside the transaction
 * of the event they record (shared/store/impersonations.ts), never changed or deleted by any route.
 */
export type AuditAction = StoredAuditEntry['action'];

/** A new entry of `action`, at the request's time. */
export function auditEntry(
  deps: Deps,
  action: AuditAction,
  event: Omit<StoredAuditEntry, 'id' | 'action' | 'at'>,
): StoredAuditEntry {
  return { id: newId(deps.random, 'evt'), action, at: new Date(deps.clock.now()).toISOString(), ...event };
}

/** An entry as `GET /applications/{applicationId}/audit` lists it. */
const auditView = (item: Record<string, unknown>) => ({
  id: item.id as string,
  action: item.action as AuditAction,
  at: item.at as string,
  applicationId: item.applicationId as string,
  actor: { userId: item.actorId as string, email: item.actorEmail as string },
  userId: item.userId as string,
  impersonationId: item.impersonationId as string,
  reason: item.reason as string,
});

/** The trail of an application, newest first, one page (SPEC §2 Page). */
export async function listAudit(deps: Deps, applicationId: string, page: { limit: number; offset: number }) {
  const { total, items } = await readAuditPage(deps.db, applicationId, page);
  return {
    items: items.map(auditView),
    page: { ...page, total, hasMore: page.offset + items.length < total },
  };
}
