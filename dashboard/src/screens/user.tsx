/**
 * One end user of an application (docs/api.md "Users", "Impersonation"): the profile, its name,
 * Disable / Enable, Revoke sessions, Delete, and Impersonate with a reason, for 15 minutes.
 * Managers only see the controls the permission matrix gives them (`users.write`,
 * `impersonation.start`). While an impersonation runs only Impersonate is gone (one at a time): the
 * management routes pass over the impersonation cookie (docs/api.md "Impersonation"), so the others
 * still act as the support user.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, call } from '../api.ts';
import { ApplicationFrame } from '../frames.tsx';
import { can, type Role } from '../permissions.ts';
import { href } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import { checkSession, useImpersonation } from '../session.ts';
import { Confirm, Done, ErrorNote, Field, Link, Show, useLoad, useSubmit, when } from '../ui.tsx';
import { useDone } from './organizations-parts.tsx';

type User = Answer<'getUser'>;

interface Context {
  readonly applicationId: string;
  readonly user: User;
  readonly reload: () => void;
  readonly report: (message: string) => void;
}

function Profile(props: { user: User }) {
  const { user } = props;
  return (
    <section class="card">
      <h2>Profile</h2>
      <dl class="facts">
        <dt>Email</dt>
        <dd>{user.email}</dd>
        <dt>Name</dt>
        <dd>{user.name ?? '—'}</dd>
        <dt>Status</dt>
        <dd>{user.disabled ? `Disabled since ${when(user.disabledAt)}` : 'Active'}</dd>
        <dt>Email verified</dt>
        <dd>{user.emailVerified ? 'Yes' : 'No'}</dd>
        <dt>Last sign-in</dt>
        <dd>{when(user.lastSignInAt)}</dd>
        <dt>Created</dt>
        <dd>{when(user.createdAt)}</dd>
        <dt>User id</dt>
        <dd>
          <code>{user.id}</code>
        </dd>
      </dl>
    </section>
  );
}

/** The name, as `PATCH …/users/{userId}` changes it (docs/api.md "Names"). */
function NameForm(props: Context) {
  const [name, setName] = useState(props.user.name ?? '');
  const save = useSubmit(
    () =>
      call('updateApplicationUser', {
        params: { applicationId: props.applicationId, userId: props.user.id },
        body: { name },
      }),
    {
      fields: ['name'],
      onDone: () => {
        props.report('Name saved.');
        props.reload();
      },
    },
  );
  return (
    <section class="card">
      <h2>Name</h2>
      <form onSubmit={save.submit}>
        <Field
          label="Name"
          value={name}
          maxLength={120}
          autoComplete="off"
          field="name"
          error={save.error}
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
        {save.formError !== undefined && <ErrorNote error={save.formError} />}
        <button type="submit" disabled={save.busy}>
          Save name
        </button>
      </form>
    </section>
  );
}

type Asking = 'disable' | 'revoke' | 'delete' | null;

/** Disable / Enable, Revoke sessions and Delete; each destructive one asks first. */
function Actions(props: Context & { onDeleted: () => void }) {
  const { applicationId, user } = props;
  const params = { applicationId, userId: user.id };
  const [asking, setAsking] = useState<Asking>(null);
  const impersonation = useImpersonation();
  // Disabling the user, revoking its sessions or deleting it ends an impersonation of it (docs/api.md
  // "Impersonation", What ends an impersonation): the banner asks the service again.
  const ended = () => {
    if (impersonation?.user.id === user.id) void checkSession();
  };
  const enable = useSubmit(() => call('enableUser', { params }), {
    onDone: () => {
      props.report(`${user.email} is enabled: it may sign in again.`);
      props.reload();
    },
  });
  const finish = (message: string) => {
    setAsking(null);
    props.report(message);
    props.reload();
    ended();
  };
  return (
    <section class="card">
      <h2>Access</h2>
      <div class="buttons">
        {user.disabled ? (
          <button type="button" disabled={enable.busy} onClick={() => void enable.submit()}>
            Enable
          </button>
        ) : (
          <button type="button" class="danger" onClick={() => setAsking('disable')}>
            Disable
          </button>
        )}
        <button type="button" class="secondary" onClick={() => setAsking('revoke')}>
          Revoke sessions
        </button>
        <button type="button" class="danger" onClick={() => setAsking('delete')}>
          Delete
        </button>
      </div>
      {enable.formError !== undefined && <ErrorNote error={enable.formError} />}
      {asking === 'disable' && (
        <Confirm
          title={`Disable ${user.email}?`}
          confirmLabel="Disable user"
          onCancel={() => setAsking(null)}
          onConfirm={async () => {
            await call('disableUser', { params });
            finish(`${user.email} is disabled: its sessions ended and it cannot sign in.`);
          }}
        >
          <p>
            Every token of the user is refused at once and its sessions end, a running impersonation included.
            It cannot sign in until it is enabled; enabling it does not bring the old sessions back.
          </p>
        </Confirm>
      )}
      {asking === 'revoke' && (
        <Confirm
          title={`Revoke every session of ${user.email}?`}
          confirmLabel="End sessions"
          onCancel={() => setAsking(null)}
          onConfirm={async () => {
            const { count } = await call('revokeUserSessions', { params });
            finish(`Ended ${count} ${count === 1 ? 'session' : 'sessions'} of ${user.email}.`);
          }}
        >
          <p>The user is signed out everywhere, and may sign in again.</p>
        </Confirm>
      )}
      {asking === 'delete' && (
        <Confirm
          title={`Delete ${user.email}?`}
          typeToConfirm={user.email}
          confirmLabel="Delete user"
          onCancel={() => setAsking(null)}
          onConfirm={async () => {
            await call('deleteUser', { params });
            setAsking(null);
            props.onDeleted();
            ended();
          }}
        >
          <p>
            The account, its sessions and its memberships go; a tenant organization it alone belonged to is
            deleted too. The address can sign up again as a new user. This cannot be undone.
          </p>
        </Confirm>
      )}
    </section>
  );
}

/** Impersonate: a reason, then 15 minutes as the user (docs/api.md "Impersonation"). */
function ImpersonateForm(props: Context) {
  const { applicationId, user } = props;
  const [reason, setReason] = useState('');
  const start = useSubmit(
    () => call('startImpersonation', { params: { applicationId, userId: user.id }, body: { reason } }),
    {
      fields: ['reason'],
      onDone: (started) => {
        // The answer's token is dropped: the service set the impersonation cookie for its own origin,
        // and the session now names the impersonation, which the banner above every screen shows.
        void checkSession();
        setReason('');
        props.report(`Impersonating ${started.user.email} until ${when(started.impersonation.expiresAt)}.`);
      },
    },
  );
  return (
    <section class="card">
      <h2>Impersonate</h2>
      {user.disabled ? (
        <p class="muted">A disabled user cannot be impersonated: it has no sessions while disabled.</p>
      ) : (
        <form onSubmit={start.submit}>
          <p class="hint">
            Act as this user for 15 minutes at most. The start, the end and your reason go to the
            application's audit trail.
          </p>
          <Field
            label="Reason"
            value={reason}
            required
            maxLength={500}
            autoComplete="off"
            field="reason"
            error={start.error}
            onInput={(event) => setReason((event.target as HTMLInputElement).value)}
          />
          {start.formError !== undefined && <ErrorNote error={start.formError} />}
          <button type="submit" disabled={start.busy}>
            Impersonate
          </button>
        </form>
      )}
    </section>
  );
}

function UserDetail(props: Context & { role: Role; onDeleted: () => void }) {
  const impersonating = useImpersonation();
  return (
    <>
      <Profile user={props.user} />
      {can(props.role, 'users.write') && <NameForm key={props.user.name} {...props} />}
      {can(props.role, 'users.write') && <Actions {...props} />}
      {/* One at a time: while one runs, the banner above the screen shows it and ends it. */}
      {impersonating === null && can(props.role, 'impersonation.start') && <ImpersonateForm {...props} />}
    </>
  );
}

export default function UserScreen(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  const userId = props.params.userId ?? '';
  const impersonation = useImpersonation();
  const done = useDone();
  // The address of the user deleted here: the screen says so, whatever a read of it answers now.
  const [deleted, setDeleted] = useState<string | null>(null);
  const loaded = useLoad(
    () => call('getUser', { params: { applicationId, userId } }),
    [applicationId, userId],
  );
  // An impersonation's start or end may have changed the user's sessions: read it again, keeping the
  // screen as it is meanwhile.
  const started = useRef(impersonation?.id);
  useEffect(() => {
    if (started.current === impersonation?.id) return;
    started.current = impersonation?.id;
    loaded.reload();
  }, [impersonation?.id]);
  const email = deleted ?? (loaded.state === 'ready' ? loaded.data.email : 'User');
  const users = href('applications', applicationId, 'users');
  return (
    <ApplicationFrame
      applicationId={applicationId}
      tab="Users"
      title={() => email}
      crumbs={[
        { label: 'Users', href: users },
        { label: email, href: href('applications', applicationId, 'users', userId) },
      ]}
    >
      {({ role }) => (
        <>
          {deleted !== null ? (
            <>
              <Done>{deleted} is deleted.</Done>
              <p>
                <Link href={users}>Back to the users</Link>
              </p>
            </>
          ) : (
            <>
              {done.line}
              <Show loaded={loaded} what="the user">
                {(user) => (
                  <UserDetail
                    applicationId={applicationId}
                    user={user}
                    role={role}
                    reload={loaded.reload}
                    report={done.say}
                    onDeleted={() => setDeleted(user.email)}
                  />
                )}
              </Show>
            </>
          )}
        </>
      )}
    </ApplicationFrame>
  );
}
