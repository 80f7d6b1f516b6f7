/**
 * An audit trail (docs/api.md "Audit trail"), newest first: an application's (owners and admins) or
 * an organization's. A filter by action, kept in the URL (`?action=apiKey.created`), and "Load more"
 * by the answer's cursor.
 */
import { useEffect, useState } from 'preact/hooks';
import { type AuditAction, auditActions } from '../../../shared/tenancy/audit-actions.ts';
import { type Answer, call } from '../api.ts';
import { ApplicationFrame, OrganizationFrame } from '../frames.tsx';
import { type Action, can, type Role } from '../permissions.ts';
import type { ScreenProps } from '../screens.ts';
import { Empty, ErrorNote, Show, TableBox, useLoad, useSubmit, when } from '../ui.tsx';
import { Choice, count, setQuery } from './insights-parts.tsx';

type AuditPage = Answer<'listAudit'>;
type Entry = AuditPage['items'][number];
type Trail = 'application' | 'organization';

/** The trail's actions, as docs/api.md lists them (generated from this same table). */
const actionsOf = (trail: Trail): AuditAction[] =>
  (Object.keys(auditActions) as AuditAction[]).filter((action) => auditActions[action].trail === trail);

const actionNamed = (trail: Trail, name: string | null): AuditAction | undefined =>
  actionsOf(trail).find((action) => action === name);

export default function Audit(props: ScreenProps) {
  const { applicationId, organizationId } = props.params;
  if (applicationId !== undefined) {
    return (
      <ApplicationFrame
        applicationId={applicationId}
        tab="Audit trail"
        title={(application) => `Audit trail: ${application.name}`}
      >
        {({ role }) => (
          <TrailView
            trail="application"
            scope={applicationId}
            role={role}
            needs="audit.read"
            query={props.query}
            load={(query) => call('listAudit', { params: { applicationId }, query })}
          />
        )}
      </ApplicationFrame>
    );
  }
  const id = organizationId ?? '';
  return (
    <OrganizationFrame
      organizationId={id}
      tab="Audit trail"
      title={(organization) => `Audit trail: ${organization.name}`}
    >
      {(organization) => (
        <TrailView
          trail="organization"
          scope={id}
          role={organization.role}
          needs="organizationAudit.read"
          query={props.query}
          load={(query) => call('listOrganizationAudit', { params: { organizationId: id }, query })}
        />
      )}
    </OrganizationFrame>
  );
}

type PageQuery = { action?: AuditAction; cursor?: string };

function TrailView(props: {
  trail: Trail;
  /** The application's or organization's id. */
  scope: string;
  role: Role;
  needs: Action;
  query: URLSearchParams;
  load: (query: PageQuery) => Promise<AuditPage>;
}) {
  if (!can(props.role, props.needs)) {
    return <p>Only the organization's owners and admins can read this audit trail.</p>;
  }
  const action = actionNamed(props.trail, props.query.get('action'));
  const options = [
    { value: '', label: 'All actions' },
    ...actionsOf(props.trail).map((name) => ({ value: name, label: name })),
  ];
  return (
    <>
      <Choice
        label="Action"
        value={action ?? ''}
        options={options}
        onChange={(value) => setQuery(props.query, 'action', value)}
      />
      {/* Another trail or filter is a new list: its pages, its "Load more" and its states start afresh. */}
      <Entries key={`${props.scope} ${action ?? ''}`} action={action} load={props.load} />
    </>
  );
}

/** The entries, page after page: the first on arrival, the next ones by "Load more". */
function Entries(props: { action: AuditAction | undefined; load: (query: PageQuery) => Promise<AuditPage> }) {
  const first = useLoad(() => props.load(props.action ? { action: props.action } : {}), []);
  const [more, setMore] = useState<AuditPage[]>([]);
  const [focusId, setFocusId] = useState<string | undefined>(undefined);
  const pages = first.state === 'ready' ? [first.data, ...more] : [];
  const last = pages[pages.length - 1];
  const next = useSubmit(
    () =>
      props.load({
        ...(props.action ? { action: props.action } : {}),
        ...(last?.page.nextCursor ? { cursor: last.page.nextCursor } : {}),
      }),
    {
      onDone: (page) => {
        setMore((loaded) => [...loaded, page]);
        setFocusId(page.items[0]?.id);
      },
    },
  );
  // The first entry "Load more" brought takes the focus: the button may be gone with the last page.
  useEffect(() => {
    if (focusId) document.getElementById(`entry-${focusId}`)?.focus();
  }, [focusId]);

  return (
    <Show loaded={first} what="the audit trail">
      {() => {
        const items = pages.flatMap((page) => page.items);
        const hasMore = last?.page.hasMore === true;
        return (
          <>
            {items.length === 0 && !hasMore ? (
              <Empty>{props.action ? `No ${props.action} entries.` : 'No entries yet.'}</Empty>
            ) : (
              items.length > 0 && <EntryTable items={items} />
            )}
            {next.formError !== undefined && <ErrorNote error={next.formError} />}
            <div class="pager">
              <span class="muted">{count(items.length, 'entry', 'entries')} shown</span>
              {hasMore && (
                <button
                  type="button"
                  class="secondary"
                  disabled={next.busy}
                  onClick={() => void next.submit()}
                >
                  Load more
                </button>
              )}
            </div>
          </>
        );
      }}
    </Show>
  );
}

function EntryTable(props: { items: readonly Entry[] }) {
  return (
    <TableBox label="Audit trail entries">
      <table>
        <caption>Entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((entry) => (
            <tr key={entry.id} id={`entry-${entry.id}`} tabIndex={-1}>
              <td class="nowrap">
                <time dateTime={entry.at}>{when(entry.at)}</time>
              </td>
              <td class="cell-wrap">
                <Actor actor={entry.actor} />
              </td>
              <td class="nowrap">
                <code>{entry.action}</code>
              </td>
              <td class="cell-wrap">
                {entry.target.label ?? entry.target.id}
                <span class="muted"> ({entry.target.type})</span>
              </td>
              <td class="cell-wrap">
                <Details entry={entry} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

/** Who made the change: a member by address, a secret key by its prefix, or the service itself. */
function Actor(props: { actor: Entry['actor'] }) {
  const { actor } = props;
  if (actor.kind === 'user') return <>{actor.email || actor.userId}</>;
  if (actor.kind === 'key') return <>Key {actor.prefix}…</>;
  return <>The service</>;
}

const shown = (value: Entry['changes'][number]['from']): string =>
  value === null ? 'none' : Array.isArray(value) ? value.join(', ') || 'none' : String(value);

/** The impersonation's reason and how it ended, and each changed field with its values before and after. */
function Details(props: { entry: Entry }) {
  const { entry } = props;
  const lines = [
    ...(entry.reason !== undefined ? [`Reason: ${entry.reason}`] : []),
    ...(entry.cause !== undefined ? [`Ended by: ${entry.cause}`] : []),
    ...entry.changes.map((change) => `${change.path}: ${shown(change.from)} → ${shown(change.to)}`),
  ];
  if (lines.length === 0) return <span class="muted">—</span>;
  return (
    <ul class="audit-details">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
