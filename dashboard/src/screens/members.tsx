/**
 * One organization, tab "Members" (docs/api.md "Organizations"): its members and their roles,
 * inviting an address (adding a member is an invitation), changing a role or removing a member where
 * the rank rule allows (an admin cannot touch an owner), leaving (LAST_OWNER), and the pending
 * invitations its managers can revoke.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { type Answer, call } from '../api.ts';
import { type Organization, OrganizationFrame } from '../frames.tsx';
import { can, mayChangeMember, type Role } from '../permissions.ts';
import { href, navigate } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import { useSession } from '../session.ts';
import { Confirm, ConfirmButton, Empty, Field, Show, TableBox, useLoad, useSubmit, when } from '../ui.tsx';
import {
  grantableRoles,
  mayRevokeInvitation,
  RoleSelect,
  roleLabel,
  Section,
  useDone,
} from './organizations-parts.tsx';
import { FormError } from './users-parts.tsx';

type Member = Answer<'listMembers'>['items'][number];
type PendingInvitation = Answer<'listOrganizationInvitations'>['items'][number];
type Actor = { kind: 'member'; role: Role; userId: string };
type Say = (message: string) => void;

export default function Members(props: ScreenProps) {
  const organizationId = props.params.organizationId ?? '';
  const session = useSession();
  const done = useDone();
  const [invitationsRound, setInvitationsRound] = useState(0);
  const userId = session.state === 'signed-in' ? session.user.id : '';
  return (
    <OrganizationFrame organizationId={organizationId} tab="Members" title={(o) => `Members of ${o.name}`}>
      {(organization, reload) => {
        const actor: Actor = { kind: 'member', role: organization.role, userId };
        return (
          <>
            {done.line}
            <MemberList
              organization={organization}
              actor={actor}
              say={(message) => {
                done.say(message);
                reload();
              }}
            />
            {can(organization.role, 'members.add') && (
              <Invite
                organization={organization}
                actor={actor}
                onInvited={(email) => {
                  done.say(`Invitation sent to ${email}. It lasts 7 days.`);
                  // The pending list is read from an index a second behind (docs/api.md "Organizations").
                  setInvitationsRound((n) => n + 1);
                  setTimeout(() => setInvitationsRound((n) => n + 1), 1500);
                }}
              />
            )}
            {can(organization.role, 'invitations.read') && (
              <PendingInvitations
                organization={organization}
                actor={actor}
                round={invitationsRound}
                say={done.say}
              />
            )}
            <Leave organization={organization} actor={actor} />
          </>
        );
      }}
    </OrganizationFrame>
  );
}

function MemberList(props: { organization: Organization; actor: Actor; say: Say }) {
  const { organization, actor } = props;
  const members = useLoad(
    () => call('listMembers', { params: { organizationId: organization.id } }),
    [organization.id],
  );
  const [removing, setRemoving] = useState<Member | null>(null);
  const changed: Say = (message) => {
    members.reload();
    props.say(message);
  };
  return (
    <Section title="Members">
      <Show loaded={members} what="the members">
        {(list) =>
          list.items.length === 0 ? (
            <Empty>This organization has no member.</Empty>
          ) : (
            <TableBox label={`Members of ${organization.name}`}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Joined</th>
                    <th scope="col">Change</th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((member) => (
                    <MemberRow
                      key={member.userId}
                      organizationId={organization.id}
                      member={member}
                      actor={actor}
                      onChanged={changed}
                      onRemove={() => setRemoving(member)}
                    />
                  ))}
                </tbody>
              </table>
            </TableBox>
          )
        }
      </Show>
      {removing && (
        <Confirm
          title={`Remove ${removing.email}?`}
          confirmLabel="Remove member"
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            await call('removeMember', {
              params: { organizationId: organization.id, userId: removing.userId },
            });
            setRemoving(null);
            changed(`${removing.email} removed.`);
          }}
        >
          <p>
            They lose access to {organization.name} and its applications at once, and any impersonation they
            are running ends. The invitations they sent stop working.
          </p>
        </Confirm>
      )}
    </Section>
  );
}

function MemberRow(props: {
  organizationId: string;
  member: Member;
  actor: Actor;
  onChanged: Say;
  onRemove: () => void;
}) {
  const { member, actor } = props;
  const me = member.userId === actor.userId;
  // The roles this member may be given by the actor, its own included (docs/api.md "Permission matrix").
  const roles = grantableRoles(actor.role).filter(
    (role) => role === member.role || mayChangeMember(actor, member, role),
  );
  const [role, setRole] = useState<Role>(member.role);
  const change = useSubmit(
    () =>
      call('updateMember', {
        params: { organizationId: props.organizationId, userId: member.userId },
        body: { role },
      }),
    {
      onDone: (changed) =>
        props.onChanged(`${changed.email} is now ${roleLabel[changed.role].toLowerCase()}.`),
    },
  );
  const mayRemove = !me && mayChangeMember(actor, member, 'removed');
  // The row's buttons are named alike on every row; the email describes which member each acts on.
  const emailId = useId();
  return (
    <tr>
      <td id={emailId}>
        {member.email}
        {me && <span class="muted"> (you)</span>}
      </td>
      <td>
        {roles.length > 1 ? (
          <RoleSelect
            label={`Role of ${member.email}`}
            hiddenLabel
            roles={roles}
            value={role}
            onChange={setRole}
          />
        ) : (
          roleLabel[member.role]
        )}
      </td>
      <td>{when(member.joinedAt)}</td>
      <td>
        <div class="buttons">
          {roles.length > 1 && (
            <button
              type="button"
              class="secondary"
              disabled={change.busy || role === member.role}
              aria-describedby={emailId}
              onClick={() => change.submit()}
            >
              Change role
            </button>
          )}
          {mayRemove && (
            <button type="button" class="danger" aria-describedby={emailId} onClick={props.onRemove}>
              Remove
            </button>
          )}
        </div>
        <FormError error={change.formError} fields={[]} />
      </td>
    </tr>
  );
}

/** The paths a field of the invitation form shows the API's issues beside. */
const INVITE_FIELDS = ['email'] as const;

function Invite(props: { organization: Organization; actor: Actor; onInvited: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const invite = useSubmit(
    () => call('addMember', { params: { organizationId: props.organization.id }, body: { email, role } }),
    {
      // The role is a choice among the roles the actor may grant: an issue of it is listed above.
      fields: INVITE_FIELDS,
      // The answer is a 202, which `Answer` does not type: the address sent names the invitee.
      onDone: () => {
        setEmail('');
        props.onInvited(email.trim());
      },
    },
  );
  return (
    <Section title="Invite a member">
      <form onSubmit={invite.submit} noValidate>
        <p class="hint">
          Nobody joins without accepting: the address gets an invitation to accept once signed in. Inviting it
          again replaces the invitation.
        </p>
        <Field
          label="Email"
          type="email"
          name="email"
          autoComplete="off"
          required
          value={email}
          error={invite.error}
          field="email"
          onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
        />
        <div class="field">
          <RoleSelect label="Role" roles={grantableRoles(props.actor.role)} value={role} onChange={setRole} />
        </div>
        <FormError error={invite.formError} fields={INVITE_FIELDS} />
        <button type="submit" disabled={invite.busy}>
          Invite
        </button>
      </form>
    </Section>
  );
}

function PendingInvitations(props: { organization: Organization; actor: Actor; round: number; say: Say }) {
  const { organization } = props;
  const invitations = useLoad(
    () => call('listOrganizationInvitations', { params: { organizationId: organization.id } }),
    [organization.id],
  );
  // A new invitation (`round`) reads the list again, keeping its rows meanwhile.
  const round = useRef(props.round);
  useEffect(() => {
    if (round.current === props.round) return;
    round.current = props.round;
    invitations.reload();
  }, [props.round]);
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  return (
    <Section title="Pending invitations">
      <p class="hint">An invitation sent a moment ago may take a second to appear here.</p>
      <Show loaded={invitations} what="the pending invitations">
        {(list) =>
          list.items.length === 0 ? (
            <Empty>No invitation is pending.</Empty>
          ) : (
            <TableBox label={`Pending invitations of ${organization.name}`}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Invited by</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Change</th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((invitation) => (
                    <InvitationRow
                      key={invitation.email}
                      invitation={invitation}
                      mayRevoke={mayRevokeInvitation(props.actor.role, invitation.role)}
                      onRevoke={() => setRevoking(invitation)}
                    />
                  ))}
                </tbody>
              </table>
            </TableBox>
          )
        }
      </Show>
      <button type="button" class="secondary" onClick={invitations.reload}>
        Refresh invitations
      </button>
      {revoking && (
        <Confirm
          title={`Revoke the invitation of ${revoking.email}?`}
          confirmLabel="Revoke invitation"
          onCancel={() => setRevoking(null)}
          onConfirm={async () => {
            await call('revokeInvitation', {
              params: { organizationId: organization.id, email: revoking.email },
            });
            setRevoking(null);
            invitations.reload();
            props.say(`Invitation of ${revoking.email} revoked.`);
          }}
        >
          <p>Accepting it will fail from now on. You can invite the address again later.</p>
        </Confirm>
      )}
    </Section>
  );
}

function InvitationRow(props: { invitation: PendingInvitation; mayRevoke: boolean; onRevoke: () => void }) {
  const { invitation } = props;
  // "Revoke" stays the button's name on every row (scripts rely on it); the email says which one.
  const emailId = useId();
  return (
    <tr>
      <td id={emailId}>{invitation.email}</td>
      <td>{roleLabel[invitation.role]}</td>
      <td>{invitation.invitedBy.email}</td>
      <td>{when(invitation.expiresAt)}</td>
      <td>
        {props.mayRevoke && (
          <button type="button" class="danger" aria-describedby={emailId} onClick={props.onRevoke}>
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}

function Leave(props: { organization: Organization; actor: Actor }) {
  const { organization, actor } = props;
  return (
    <Section title="Leave">
      <p>
        You lose access to {organization.name} and its applications. Only another member can invite you back.
      </p>
      <ConfirmButton
        label="Leave organization"
        title={`Leave ${organization.name}?`}
        confirmLabel="Leave"
        onConfirm={async () => {
          await call('removeMember', { params: { organizationId: organization.id, userId: actor.userId } });
          navigate(href('organizations'), { notice: `You left ${organization.name}.` });
        }}
      >
        <p>
          You lose access to it and its applications at once. The last owner cannot leave: make another member
          owner first.
        </p>
      </ConfirmButton>
    </Section>
  );
}
