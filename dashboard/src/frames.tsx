/**
 * The frames the screens of one organization or one application share: breadcrumbs, the tabs of the
 * screens beside it, and the signed-in account's role there, which decides what controls a screen
 * shows (dashboard/src/permissions.ts).
 */
import type { ComponentChildren } from 'preact';
import { type Answer, call } from './api.ts';
import { type Action, can, type Role } from './permissions.ts';
import { href } from './router.ts';
import { Link, Page, Show, useLoad } from './ui.tsx';

export type Organization = Answer<'getOrganization'>;
export type Application = Answer<'getApplication'>;

interface Tab {
  readonly label: string;
  readonly path: readonly string[];
  /** Shown only to a role the matrix allows this action. */
  readonly needs?: Action;
}

function Tabs(props: { tabs: readonly Tab[]; current: string; role: Role; base: readonly string[] }) {
  return (
    <nav aria-label="Sections">
      <ul class="tabs">
        {props.tabs
          .filter((tab) => !tab.needs || can(props.role, tab.needs))
          .map((tab) => {
            const target = href(...props.base, ...tab.path);
            return (
              <li key={tab.label}>
                <Link href={target} aria-current={tab.label === props.current ? 'page' : undefined}>
                  {tab.label}
                </Link>
              </li>
            );
          })}
      </ul>
    </nav>
  );
}

const organizationTabs: readonly Tab[] = [
  { label: 'Applications', path: [] },
  { label: 'Members', path: ['members'] },
  { label: 'Audit trail', path: ['audit'], needs: 'organizationAudit.read' },
];

/** A screen of one organization; `children` gets the organization (with the account's role in it). */
export function OrganizationFrame(props: {
  organizationId: string;
  tab: string;
  title?: (organization: Organization) => string;
  children: (organization: Organization, reload: () => void) => ComponentChildren;
}) {
  const loaded = useLoad(
    () => call('getOrganization', { params: { organizationId: props.organizationId } }),
    [props.organizationId],
  );
  const base = ['organizations', props.organizationId];
  return (
    <Show loaded={loaded} what="the organization" page>
      {(organization) => (
        <Page
          title={props.title ? props.title(organization) : organization.name}
          crumbs={[
            { label: 'Organizations', href: href('organizations') },
            { label: organization.name, href: href(...base) },
          ]}
        >
          <Tabs tabs={organizationTabs} current={props.tab} role={organization.role} base={base} />
          {props.children(organization, loaded.reload)}
        </Page>
      )}
    </Show>
  );
}

const applicationTabs: readonly Tab[] = [
  { label: 'Overview', path: [] },
  { label: 'API keys', path: ['keys'] },
  { label: 'Configuration', path: ['configuration'] },
  { label: 'Users', path: ['users'] },
  { label: 'Organizations', path: ['organizations'] },
  { label: 'Insights', path: ['insights'] },
  { label: 'Audit trail', path: ['audit'], needs: 'audit.read' },
];

/** A screen of one application: its organization gives the account's role. */
export function ApplicationFrame(props: {
  applicationId: string;
  tab: string;
  title?: (application: Application) => string;
  /** Breadcrumbs after the application's own. */
  crumbs?: readonly { label: string; href: string }[];
  children: (context: {
    application: Application;
    organization: Organization;
    role: Role;
    reload: () => void;
  }) => ComponentChildren;
}) {
  const loaded = useLoad(async () => {
    const application = await call('getApplication', { params: { applicationId: props.applicationId } });
    const organization = await call('getOrganization', {
      params: { organizationId: application.organizationId },
    });
    return { application, organization };
  }, [props.applicationId]);
  const base = ['applications', props.applicationId];
  return (
    <Show loaded={loaded} what="the application" page>
      {({ application, organization }) => (
        <Page
          title={props.title ? props.title(application) : application.name}
          crumbs={[
            { label: 'Organizations', href: href('organizations') },
            { label: organization.name, href: href('organizations', organization.id) },
            { label: application.name, href: href(...base) },
            ...(props.crumbs ?? []),
          ]}
        >
          <Tabs tabs={applicationTabs} current={props.tab} role={organization.role} base={base} />
          {props.children({ application, organization, role: organization.role, reload: loaded.reload })}
        </Page>
      )}
    </Show>
  );
}
