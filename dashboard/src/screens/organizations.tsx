/**
 * The account's organizations (docs/api.md "Organizations"): each with the account's role, its plan
 * and its usage against the plan's cap; creating one (at most 10 per account: ORGANIZATION_LIMIT_REACHED);
 * and the invitations addressed to the account, to accept or decline.
 */
import { useId, useState } from 'preact/hooks';
import { type Answer, call } from '../api.ts';
import { href, notice } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import {
  Confirm,
  Empty,
  ErrorNote,
  Field,
  Link,
  Page,
  Show,
  TableBox,
  useLoad,
  useSubmit,
  when,
} from '../ui.tsx';
import { applicationUsage, roleLabel, Section, useDone } from './organizations-parts.tsx';

type Invitation = Answer<'listInvitations'>['items'][number];

export default function Organizations(_props: ScreenProps) {
  const organizations = useLoad(() => call('listOrganizations'), []);
  // Another screen's notice of what it deleted or left (organization.tsx, members.tsx), carried in the
  // history entry (router.ts), never in the URL.
  const done = useDone(notice());

  return (
    <Page title="Organizations">
      {done.line}
      <Section title="Your organizations">
        <Show loaded={organizations} what="your organizations">
          {(list) =>
            list.items.length === 0 ? (
              <Empty>You belong to no organization yet. Create one below.</Empty>
            ) : (
              <TableBox label="Your organizations">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Your role</th>
                      <th scope="col">Plan</th>
                      <th scope="col">Applications</th>
                      <th scope="col">Members</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.items.map((organization) => (
                      <tr key={organization.id}>
                        <td>
                          <Link href={href('organizations', organization.id)}>{organization.name}</Link>
                        </td>
                        <td>{roleLabel[organization.role]}</td>
                        <td>{organization.plan.name}</td>
                        <td>{applicationUsage(organization)}</td>
                        <td>{organization.usage.members}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableBox>
            )
          }
        </Show>
        <CreateOrganization
          onCreated={(name) => {
            done.say(`Organization ${name} created.`);
            organizations.reload();
          }}
        />
      </Section>
      <YourInvitations
        onAccepted={(name) => {
          done.say(`You joined ${name}.`);
          organizations.reload();
        }}
        onDeclined={(name) => done.say(`Invitation to ${name} declined.`)}
      />
    </Page>
  );
}

function CreateOrganization(props: { onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const create = useSubmit(() => call('createOrganization', { body: { name } }), {
    fields: ['name'],
    onDone: (organization) => {
      setName('');
      props.onCreated(organization.name);
    },
  });
  return (
    <form onSubmit={create.submit} noValidate aria-labelledby="create-organization">
      <h3 id="create-organization">New organization</h3>
      <Field
        label="Name"
        name="name"
        autoComplete="organization"
        required
        value={name}
        error={create.error}
        field="name"
        hint="An account creates at most 10 organizations."
        onInput={(event) => setName((event.target as HTMLInputElement).value)}
      />
      {create.formError !== undefined && <ErrorNote error={create.formError} />}
      <button type="submit" disabled={create.busy}>
        Create organization
      </button>
    </form>
  );
}

/** Invitations addressed to the signed-in account (docs/api.md "Organizations": adding a member is an invitation). */
function YourInvitations(props: { onAccepted: (name: string) => void; onDeclined: (name: string) => void }) {
  const invitations = useLoad(() => call('listInvitations'), []);
  const [declining, setDeclining] = useState<Invitation | null>(null);
  return (
    <Section title="Invitations for you">
      <Show loaded={invitations} what="your invitations">
        {(list) =>
          list.items.length === 0 ? (
            <Empty>No invitation is waiting for you.</Empty>
          ) : (
            <TableBox label="Invitations for you">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Organization</th>
                    <th scope="col">Role</th>
                    <th scope="col">Invited by</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((invitation) => (
                    <InvitationRow
                      key={invitation.organizationId}
                      invitation={invitation}
                      onAccepted={() => {
                        invitations.reload();
                        props.onAccepted(invitation.organizationName);
                      }}
                      onDecline={() => setDeclining(invitation)}
                    />
                  ))}
                </tbody>
              </table>
            </TableBox>
          )
        }
      </Show>
      {declining && (
        <Confirm
          title={`Decline the invitation to ${declining.organizationName}?`}
          confirmLabel="Decline invitation"
          onCancel={() => setDeclining(null)}
          onConfirm={async () => {
            await call('declineInvitation', { params: { organizationId: declining.organizationId } });
            setDeclining(null);
            invitations.reload();
            props.onDeclined(declining.organizationName);
          }}
        >
          <p>
            You will not join it. To join later, {declining.invitedBy} or another of its managers must invite
            you again.
          </p>
        </Confirm>
      )}
    </Section>
  );
}

function InvitationRow(props: { invitation: Invitation; onAccepted: () => void; onDecline: () => void }) {
  const { invitation } = props;
  const accept = useSubmit(
    () => call('acceptInvitation', { params: { organizationId: invitation.organizationId } }),
    { onDone: props.onAccepted },
  );
  // Accept and Decline are named alike on every row; the organization's name says which one.
  const nameId = useId();
  return (
    <tr>
      <td id={nameId}>{invitation.organizationName}</td>
      <td>{roleLabel[invitation.role]}</td>
      <td>{invitation.invitedBy}</td>
      <td>{when(invitation.expiresAt)}</td>
      <td>
        <div class="buttons">
          <button
            type="button"
            disabled={accept.busy}
            aria-describedby={nameId}
            onClick={() => accept.submit()}
          >
            Accept
          </button>
          <button type="button" class="secondary" aria-describedby={nameId} onClick={props.onDecline}>
            Decline
          </button>
        </div>
        {accept.formError !== undefined && <ErrorNote error={accept.formError} />}
      </td>
    </tr>
  );
}
