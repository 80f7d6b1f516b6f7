/**
 * An application's tenant organizations (docs/api.md "Tenant organizations"): the list by id, paged
 * by `limit` and `offset`, and, for managers, creating one owned by one of the application's users.
 */
import { useState } from 'preact/hooks';
import { type Answer, call } from '../api.ts';
import { ApplicationFrame } from '../frames.tsx';
import { can } from '../permissions.ts';
import { href } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import { Empty, Field, Link, Show, TableBox, useLoad, useSubmit, when } from '../ui.tsx';
import { useDone } from './organizations-parts.tsx';
import { FormError, offsetOf, PAGE_SIZE, Pager, withQuery } from './users-parts.tsx';

type TenantOrganization = Answer<'listTenantOrganizations'>['items'][number];

const CREATE_FIELDS = ['name', 'email'] as const;

function CreateForm(props: { applicationId: string; onCreated: (organization: TenantOrganization) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const create = useSubmit(
    () =>
      call('createTenantOrganization', {
        params: { applicationId: props.applicationId },
        body: { name, email: email.trim() },
      }),
    {
      fields: CREATE_FIELDS,
      onDone: (organization) => {
        setName('');
        setEmail('');
        props.onCreated(organization);
      },
    },
  );
  return (
    <section class="card">
      <h2>New organization</h2>
      <form onSubmit={create.submit} noValidate>
        <Field
          label="Organization name"
          value={name}
          maxLength={120}
          autoComplete="off"
          field="name"
          error={create.error}
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
        <Field
          label="Owner's email"
          type="email"
          value={email}
          autoComplete="off"
          field="email"
          error={create.error}
          hint="The owner is one of this application's users: an address that has signed in to it."
          onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
        />
        <FormError error={create.formError} fields={CREATE_FIELDS} />
        <button type="submit" disabled={create.busy}>
          Create organization
        </button>
      </form>
    </section>
  );
}

function OrganizationsTable(props: { applicationId: string; items: readonly TenantOrganization[] }) {
  return (
    <TableBox label="Organizations">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Members</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((organization) => (
            <tr key={organization.id}>
              <td>
                <Link href={href('applications', props.applicationId, 'organizations', organization.id)}>
                  {organization.name}
                </Link>
              </td>
              <td>{organization.memberCount}</td>
              <td>{when(organization.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

function OrganizationList(props: { applicationId: string; offset: number; writes: boolean }) {
  const { applicationId, offset } = props;
  const done = useDone();
  const loaded = useLoad(
    () =>
      call('listTenantOrganizations', {
        params: { applicationId },
        query: { limit: String(PAGE_SIZE), offset: String(offset) },
      }),
    [applicationId, offset],
  );
  const base = href('applications', applicationId, 'organizations');
  return (
    <>
      {done.line}
      <p class="muted">
        The organizations of this application's own users: each user's first sign-in creates one it owns.
      </p>
      <Show loaded={loaded} what="the organizations">
        {(list) => (
          <>
            {list.items.length === 0 ? (
              <Empty>No organizations yet.</Empty>
            ) : (
              <OrganizationsTable applicationId={applicationId} items={list.items} />
            )}
            <Pager
              page={list.page}
              shown={list.items.length}
              label="Pages of organizations"
              to={(next) => withQuery(base, { offset: next })}
            />
          </>
        )}
      </Show>
      {props.writes && (
        <CreateForm
          applicationId={applicationId}
          onCreated={(organization) => {
            done.say(`Created ${organization.name}.`);
            loaded.reload();
          }}
        />
      )}
    </>
  );
}

export default function TenantOrganizations(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  return (
    <ApplicationFrame
      applicationId={applicationId}
      tab="Organizations"
      title={(application) => `Organizations of ${application.name}`}
    >
      {({ role }) => (
        <OrganizationList
          applicationId={applicationId}
          offset={offsetOf(props.query)}
          writes={can(role, 'tenantOrganizations.write')}
        />
      )}
    </ApplicationFrame>
  );
}
