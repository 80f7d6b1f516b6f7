/**
 * One tenant organization of an application (docs/api.md "Tenant organizations"): its members, owners
 * first, and, for the application's managers (who act on any rank of it), adding members, changing
 * their roles, removing them, renaming and deleting it. It always keeps an owner: the API answers
 * 409 `LAST_OWNER` otherwise, shown as it comes.
 */
import { useId, useState } from 'preact/hooks';
import { type Answer, call } from '../api.ts';
import { ApplicationFrame } from '../frames.tsx';
import { can, type Role } from '../permissions.ts';
import { href } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import {
  Confirm,
  ConfirmButton,
  Done,
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
import { ROLES, RoleSelect, useDone } from './organizations-parts.tsx';
import { FormError } from './users-parts.tsx';

type TenantOrganization = Answer<'getTenantOrganization'>;
type Member = Answer<'listTenantMembers'>['items'][number];

interface Context {
  readonly applicationId: string;
  readonly organization: TenantOrganization;
  readonly writes: boolean;
  readonly reload: () => void;
  readonly report: (message: string) => void;
}

/** The paths a field of the form shows the API's issues beside; an issue of the role is listed above. */
const ADD_FIELDS = ['email'] as const;

function AddMember(props: Context) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const add = useSubmit(
    () =>
      call('addTenantMember', {
        params: { applicationId: props.applicationId, organizationId: props.organization.id },
        body: { email: email.trim(), role },
      }),
    {
      fields: ADD_FIELDS,
      onDone: (member) => {
        setEmail('');
        setRole('member');
        props.report(`Added ${member.email} as ${member.role}.`);
        props.reload();
      },
    },
  );
  return (
    <form onSubmit={add.submit} noValidate>
      <h3>Add a member</h3>
      <Field
        label="Member's email"
        type="email"
        value={email}
        autoComplete="off"
        field="email"
        error={add.error}
        hint="An address that has signed in to this application."
        onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
      />
      <div class="field">
        <RoleSelect label="Role" roles={ROLES} value={role} onChange={setRole} />
      </div>
      <FormError error={add.formError} fields={ADD_FIELDS} />
      <button type="submit" disabled={add.busy}>
        Add member
      </button>
    </form>
  );
}

function Members(props: Context) {
  const { applicationId, organization } = props;
  const loaded = useLoad(
    () => call('listTenantMembers', { params: { applicationId, organizationId: organization.id } }),
    [applicationId, organization.id],
  );
  const [error, setError] = useState<unknown>(undefined);
  const [removing, setRemoving] = useState<Member | null>(null);
  const memberParams = (member: Member) => ({
    applicationId,
    organizationId: organization.id,
    userId: member.userId,
  });
  const changed = (message: string) => {
    props.report(message);
    loaded.reload();
    props.reload();
  };
  const changeRole = async (member: Member, role: Role) => {
    setError(undefined);
    try {
      await call('updateTenantMember', { params: memberParams(member), body: { role } });
      changed(`${member.email} is now ${role}.`);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section class="card">
      <h2>Members</h2>
      {error !== undefined && <ErrorNote error={error} />}
      <Show loaded={loaded} what="the members">
        {(list) =>
          list.items.length === 0 ? (
            <Empty>No members.</Empty>
          ) : (
            <TableBox label={`Members of ${organization.name}`}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Joined</th>
                    {props.writes && <th scope="col">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((member) => (
                    <MemberRow
                      key={member.userId}
                      applicationId={applicationId}
                      member={member}
                      writes={props.writes}
                      onRole={(role) => void changeRole(member, role)}
                      onRemove={() => setRemoving(member)}
                    />
                  ))}
                </tbody>
              </table>
            </TableBox>
          )
        }
      </Show>
      {props.writes && (
        <AddMember
          {...props}
          reload={() => {
            loaded.reload();
            props.reload();
          }}
        />
      )}
      {removing && (
        <Confirm
          title={`Remove ${removing.email} from ${organization.name}?`}
          confirmLabel="Remove member"
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            await call('removeTenantMember', { params: memberParams(removing) });
            setRemoving(null);
            changed(`Removed ${removing.email} from ${organization.name}.`);
          }}
        >
          <p>The user stays a user of the application; only its membership goes.</p>
        </Confirm>
      )}
    </section>
  );
}

function MemberRow(props: {
  applicationId: string;
  member: Member;
  writes: boolean;
  onRole: (role: Role) => void;
  onRemove: () => void;
}) {
  const { member } = props;
  // The row's buttons are named alike on every row; the email describes which member each acts on.
  const emailId = useId();
  return (
    <tr>
      <td id={emailId}>
        <Link href={href('applications', props.applicationId, 'users', member.userId)}>{member.email}</Link>
      </td>
      <td>{member.role}</td>
      <td>{when(member.joinedAt)}</td>
      {props.writes && (
        <td>
          <div class="buttons">
            {ROLES.filter((role) => role !== member.role).map((role) => (
              <button
                key={role}
                type="button"
                class="secondary"
                aria-describedby={emailId}
                onClick={() => props.onRole(role)}
              >
                Make {role}
              </button>
            ))}
            <button type="button" class="danger" aria-describedby={emailId} onClick={props.onRemove}>
              Remove
            </button>
          </div>
        </td>
      )}
    </tr>
  );
}

function Rename(props: Context) {
  const [name, setName] = useState(props.organization.name);
  const rename = useSubmit(
    () =>
      call('updateTenantOrganization', {
        params: { applicationId: props.applicationId, organizationId: props.organization.id },
        body: { name },
      }),
    {
      fields: ['name'],
      onDone: (organization) => {
        props.report(`Renamed to ${organization.name}.`);
        props.reload();
      },
    },
  );
  return (
    <section class="card">
      <h2>Name</h2>
      <form onSubmit={rename.submit} noValidate>
        <Field
          label="Organization name"
          value={name}
          maxLength={120}
          autoComplete="off"
          field="name"
          error={rename.error}
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
        {rename.formError !== undefined && <ErrorNote error={rename.formError} />}
        <button type="submit" disabled={rename.busy}>
          Rename
        </button>
      </form>
    </section>
  );
}

function DeleteOrganization(props: Context & { onDeleted: () => void }) {
  const { organization } = props;
  return (
    <section class="card">
      <h2>Delete</h2>
      <p>Its memberships go with it; its users stay users of the application.</p>
      <ConfirmButton
        label="Delete organization"
        title={`Delete ${organization.name}?`}
        typeToConfirm={organization.name}
        confirmLabel="Delete organization"
        onConfirm={async () => {
          await call('deleteTenantOrganization', {
            params: { applicationId: props.applicationId, organizationId: organization.id },
          });
          props.onDeleted();
        }}
      >
        <p>This cannot be undone.</p>
      </ConfirmButton>
    </section>
  );
}

function OrganizationDetail(props: Context) {
  const [deleted, setDeleted] = useState(false);
  const list = href('applications', props.applicationId, 'organizations');
  if (deleted) {
    return (
      <>
        <Done>{props.organization.name} is deleted.</Done>
        <p>
          <Link href={list}>Back to the organizations</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <section class="card">
        <h2>About</h2>
        <dl class="facts">
          <dt>Members</dt>
          <dd>{props.organization.memberCount}</dd>
          <dt>Created</dt>
          <dd>{when(props.organization.createdAt)}</dd>
          <dt>Organization id</dt>
          <dd>
            <code>{props.organization.id}</code>
          </dd>
        </dl>
      </section>
      <Members {...props} />
      {props.writes && <Rename key={props.organization.name} {...props} />}
      {props.writes && <DeleteOrganization {...props} onDeleted={() => setDeleted(true)} />}
    </>
  );
}

export default function TenantOrganizationScreen(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  const organizationId = props.params.organizationId ?? '';
  const done = useDone();
  const loaded = useLoad(
    () => call('getTenantOrganization', { params: { applicationId, organizationId } }),
    [applicationId, organizationId],
  );
  const name = loaded.state === 'ready' ? loaded.data.name : 'Organization';
  return (
    <ApplicationFrame
      applicationId={applicationId}
      tab="Organizations"
      title={() => name}
      crumbs={[
        { label: 'Organizations', href: href('applications', applicationId, 'organizations') },
        { label: name, href: href('applications', applicationId, 'organizations', organizationId) },
      ]}
    >
      {({ role }) => (
        <>
          {done.line}
          <Show loaded={loaded} what="the organization">
            {(organization) => (
              <OrganizationDetail
                applicationId={applicationId}
                organization={organization}
                writes={can(role, 'tenantOrganizations.write')}
                reload={loaded.reload}
                report={done.say}
              />
            )}
          </Show>
        </>
      )}
    </ApplicationFrame>
  );
}
