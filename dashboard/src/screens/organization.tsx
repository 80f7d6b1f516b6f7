/**
 * One organization, tab "Applications" (docs/api.md "Organizations" and "Applications"): its plan and
 * usage, its applications (paged), creating one within the plan's cap (PLAN_LIMIT_REACHED), renaming
 * the organization (managers) and deleting it once it holds no application (owner, ORGANIZATION_NOT_EMPTY).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { type Organization, OrganizationFrame } from '../frames.tsx';
import { can } from '../permissions.ts';
import { href, navigate, notice } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import {
  ConfirmButton,
  Empty,
  ErrorNote,
  Field,
  Link,
  Show,
  TableBox,
  useLoad,
  useSubmit,
  when,
} from '../ui.tsx';
import { applicationUsage, CapWarning, roleLabel, Section, useDone } from './organizations-parts.tsx';
import { offsetOf, PAGE_SIZE, Pager, withQuery } from './users-parts.tsx';

export default function OrganizationScreen(props: ScreenProps) {
  const organizationId = props.params.organizationId ?? '';
  // The notice of the application application.tsx deleted, carried in the history entry (router.ts).
  const done = useDone(notice());
  return (
    <OrganizationFrame organizationId={organizationId} tab="Applications">
      {(organization, reload) => (
        <>
          {done.line}
          <Plan organization={organization} />
          <Applications
            organization={organization}
            offset={offsetOf(props.query)}
            onCreated={(name) => {
              done.say(`Application ${name} created.`);
              reload();
            }}
          />
          {can(organization.role, 'organizations.update') && (
            <Rename
              organization={organization}
              onRenamed={(name) => {
                done.say(`Organization renamed to ${name}.`);
                reload();
              }}
            />
          )}
          {can(organization.role, 'organizations.delete') && (
            <DeleteOrganization organization={organization} />
          )}
        </>
      )}
    </OrganizationFrame>
  );
}

function Plan(props: { organization: Organization }) {
  const { organization } = props;
  return (
    <Section title="Plan and usage">
      <dl class="facts">
        <dt>Plan</dt>
        <dd>{organization.plan.name}</dd>
        <dt>Applications</dt>
        <dd>{applicationUsage(organization)}</dd>
        <dt>Members</dt>
        <dd>{organization.usage.members}</dd>
        <dt>Your role</dt>
        <dd>{roleLabel[organization.role]}</dd>
        <dt>Created</dt>
        <dd>{when(organization.createdAt)}</dd>
      </dl>
      <CapWarning organization={organization} />
    </Section>
  );
}

/** The organization's applications, a page at a time; the page is in the URL (`?offset=`). */
function Applications(props: {
  organization: Organization;
  offset: number;
  onCreated: (name: string) => void;
}) {
  const { organization, offset } = props;
  const [creating, setCreating] = useState(false);
  const applications = useLoad(
    () =>
      call('listApplications', {
        params: { organizationId: organization.id },
        query: { limit: String(PAGE_SIZE), offset: String(offset) },
      }),
    [organization.id, offset],
  );
  const mayCreate = can(organization.role, 'applications.create');
  return (
    <Section
      title="Applications"
      actions={
        mayCreate &&
        !creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New application
          </button>
        )
      }
    >
      {creating && (
        <NewApplication
          organizationId={organization.id}
          onCancel={() => setCreating(false)}
          onCreated={(name) => {
            setCreating(false);
            applications.reload();
            props.onCreated(name);
          }}
        />
      )}
      <Show loaded={applications} what="the applications">
        {(list) => (
          <>
            {list.items.length === 0 ? (
              <Empty>This organization has no application yet.</Empty>
            ) : (
              <TableBox label={`Applications of ${organization.name}`}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Id</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.items.map((application) => (
                      <tr key={application.id}>
                        <td>
                          <Link href={href('applications', application.id)}>{application.name}</Link>
                        </td>
                        <td>
                          <code>{application.id}</code>
                        </td>
                        <td>{when(application.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableBox>
            )}
            <Pager
              page={list.page}
              shown={list.items.length}
              label="Pages of applications"
              to={(next) => withQuery(href('organizations', organization.id), { offset: next })}
            />
          </>
        )}
      </Show>
    </Section>
  );
}

function NewApplication(props: {
  organizationId: string;
  onCancel: () => void;
  onCreated: (name: string) => void;
}) {
  const [name, setName] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const create = useSubmit(
    () => call('createApplication', { params: { organizationId: props.organizationId }, body: { name } }),
    { fields: ['name'], onDone: (application) => props.onCreated(application.name) },
  );
  return (
    <form onSubmit={create.submit} noValidate aria-labelledby="new-application">
      <h3 id="new-application">New application</h3>
      <Field
        label="Name"
        name="name"
        required
        ref={input}
        value={name}
        error={create.error}
        field="name"
        hint="Shown in sign-in emails and pages; it may not look like a web address."
        onInput={(event) => setName((event.target as HTMLInputElement).value)}
      />
      {create.formError !== undefined && <ErrorNote error={create.formError} />}
      <div class="buttons">
        <button type="submit" disabled={create.busy}>
          Create
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Rename(props: { organization: Organization; onRenamed: (name: string) => void }) {
  const [name, setName] = useState(props.organization.name);
  const rename = useSubmit(
    () => call('updateOrganization', { params: { organizationId: props.organization.id }, body: { name } }),
    { fields: ['name'], onDone: (organization) => props.onRenamed(organization.name) },
  );
  return (
    <Section title="Rename">
      <form onSubmit={rename.submit} noValidate>
        <Field
          // Not "Name": the New application form's input is the one labelled so (docs/dashboard.md).
          label="Rename to"
          name="name"
          autoComplete="organization"
          required
          value={name}
          error={rename.error}
          field="name"
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
        {rename.formError !== undefined && <ErrorNote error={rename.formError} />}
        <button type="submit" disabled={rename.busy}>
          Rename organization
        </button>
      </form>
    </Section>
  );
}

function DeleteOrganization(props: { organization: Organization }) {
  const { organization } = props;
  return (
    <Section title="Delete this organization">
      <p>
        Deleting it ends every membership and pending invitation. Only an organization without applications
        can be deleted{organization.usage.applications > 0 ? ': delete its applications first.' : '.'}
      </p>
      <ConfirmButton
        label="Delete organization"
        title={`Delete ${organization.name}?`}
        typeToConfirm={organization.name}
        confirmLabel="Delete organization"
        onConfirm={async () => {
          await call('deleteOrganization', { params: { organizationId: organization.id } });
          navigate(href('organizations'), { notice: `Organization ${organization.name} deleted.` });
        }}
      >
        <p>
          Its members lose access and its pending invitations stop working. This cannot be undone. It is
          refused while the organization holds an application.
        </p>
      </ConfirmButton>
    </Section>
  );
}
