/**
 * My account: the signed-in account's own profile (name and photo), its sessions, and the OAuth
 * connections it granted (docs/api.md "Endpoints", "Profile images", "OAuth tokens and connections").
 * Every call acts on the account the session cookie names, whatever organization it belongs to.
 */
import { useState } from 'preact/hooks';
import { type Answer, ApiError, call } from '../api.ts';
import type { ScreenProps } from '../screens.ts';
import { type Account, useImpersonation } from '../session.ts';
import {
  Confirm,
  Done,
  Empty,
  ErrorNote,
  Field,
  Page,
  Show,
  TableBox,
  useLoad,
  useSubmit,
  when,
} from '../ui.tsx';
import { count } from './insights-parts.tsx';
import { Section } from './organizations-parts.tsx';

export default function MyAccount(_props: ScreenProps) {
  const impersonation = useImpersonation();
  // While it runs, the service answers these routes as the impersonated user (docs/api.md
  // "Impersonation"): this screen would show and change their account, not yours.
  if (impersonation) {
    return (
      <Page title="My account">
        <p>
          While you impersonate {impersonation.user.email}, this browser is them to the service's session and
          profile routes. End the impersonation (above) to see and change your own account.
        </p>
      </Page>
    );
  }
  return (
    <Page title="My account">
      <Profile />
      <Sessions />
      <Connections />
    </Page>
  );
}

/**
 * What a part with destructive actions keeps: the action waiting for its confirmation, and the line
 * that says the last one worked.
 */
function useConfirmed<T>() {
  const [pending, setPending] = useState<T | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  return {
    pending,
    done,
    ask: (what: T) => {
      setDone(undefined);
      setPending(what);
    },
    cancel: () => setPending(undefined),
    finish: (message: string) => {
      setPending(undefined);
      setDone(message);
    },
  };
}

function Profile() {
  const loaded = useLoad(() => call('session'), []);
  // The profile as the last save stored it: `update-user` answers the stored user (docs/api.md
  // "Endpoints"), so the form starts again from it at once, never from a read that might come after
  // the next keystroke.
  const [saved, setSaved] = useState<{ user: Account; round: number } | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  return (
    <Section title="Profile">
      <Show loaded={loaded} what="your profile">
        {(info) => {
          const user = saved?.user ?? info.user;
          return user ? (
            <ProfileForm
              key={saved?.round ?? 0}
              user={user}
              onEdit={() => setDone(undefined)}
              onSaved={(result) => {
                if (result.user) setSaved({ user: result.user, round: (saved?.round ?? 0) + 1 });
                setDone(result.message);
              }}
            />
          ) : (
            <ErrorNote error={new Error('The service names no signed-in account for this session.')} />
          );
        }}
      </Show>
      {done && <Done>{done}</Done>}
    </Section>
  );
}

/** An uploaded photo is at most 500 KiB (docs/api.md "Profile images", "Limits"). */
const MAX_UPLOAD_BYTES = 500 * 1024;
const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** A refusal of the chosen file before it is sent, shown beside the field as the API's would be. */
const fileRefusal = (message: string) =>
  new ApiError(0, 'VALIDATION_ERROR', message, { issues: [{ path: 'image', message }] });

function ProfileForm(props: {
  user: Account;
  onEdit: () => void;
  onSaved: (result: { message: string; user?: Account }) => void;
}) {
  const { user } = props;
  const [name, setName] = useState(user.name ?? '');
  const [url, setUrl] = useState(user.image ?? '');
  const [upload, setUpload] = useState<string | undefined>(undefined);
  const [fileError, setFileError] = useState<ApiError | undefined>(undefined);

  /** Only what changed: an untouched photo is not sent back (an uploaded one would be stored again). */
  const changes = () => ({
    ...(name.trim() !== (user.name ?? '') ? { name } : {}),
    ...(upload !== undefined
      ? { image: upload }
      : url.trim() !== (user.image ?? '')
        ? { image: url.trim() }
        : {}),
  });
  const save = useSubmit(
    async () => {
      const body = changes();
      if (Object.keys(body).length === 0) return { message: 'Nothing changed: the profile is as it was.' };
      const answer = await call('updateUser', { body });
      return { message: 'Your profile is saved.', user: answer.user };
    },
    { fields: ['name', 'image'], onDone: props.onSaved },
  );

  const pick = (event: Event) => {
    props.onEdit();
    save.clear();
    setUpload(undefined);
    setFileError(undefined);
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      setFileError(
        fileRefusal(`This file is ${Math.ceil(file.size / 1024)} KB; an uploaded photo is at most 500 KB.`),
      );
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') setUpload(reader.result);
    };
    reader.onerror = () => setFileError(fileRefusal('The file could not be read.'));
    reader.readAsDataURL(file);
  };

  // The API's word on the photo goes beside the field its value came from.
  const imageError = upload !== undefined ? undefined : save.error;
  return (
    <form onSubmit={save.submit} noValidate>
      <p class="muted">
        Signed in as <strong>{user.email}</strong>, since {when(user.createdAt)}.
      </p>
      {user.image && <img class="avatar" src={user.image} alt="Your current avatar" width={64} height={64} />}
      {save.formError !== undefined && <ErrorNote error={save.formError} />}
      <Field
        label="Name"
        field="name"
        error={save.error}
        value={name}
        autoComplete="name"
        onInput={(event) => {
          props.onEdit();
          setName((event.currentTarget as HTMLInputElement).value);
        }}
      />
      <Field
        label="Photo URL"
        field="image"
        error={imageError}
        type="url"
        inputMode="url"
        value={url}
        hint="An https address, shown as it is and never fetched by the service. Empty: no photo."
        onInput={(event) => {
          props.onEdit();
          setUrl((event.currentTarget as HTMLInputElement).value);
        }}
      />
      <Field
        label="Upload a photo"
        field="image"
        error={fileError ?? (upload !== undefined ? save.error : undefined)}
        type="file"
        accept={IMAGE_TYPES}
        hint="PNG, JPEG, GIF or WebP, at most 500 KB. It replaces the photo URL."
        onChange={pick}
      />
      <div class="buttons">
        <button type="submit" disabled={save.busy || fileError !== undefined}>
          Save profile
        </button>
      </div>
    </form>
  );
}

type Session = Answer<'listSessions'>['items'][number];

function Sessions() {
  const loaded = useLoad(() => call('listSessions'), []);
  const action = useConfirmed<Session | 'others'>();
  const { pending } = action;
  return (
    <Section title="Sessions">
      <Show loaded={loaded} what="your sessions">
        {({ items }) => {
          const others = items.filter((session) => !session.current);
          return (
            <>
              {items.length === 0 ? (
                <Empty>No live session.</Empty>
              ) : (
                <SessionTable items={items} onRevoke={action.ask} />
              )}
              {others.length > 0 && (
                <div class="buttons">
                  <button type="button" class="danger" onClick={() => action.ask('others')}>
                    Sign out other sessions
                  </button>
                </div>
              )}
              {pending === 'others' && (
                <Confirm
                  title="Sign out every other session?"
                  confirmLabel="Sign them out"
                  onCancel={action.cancel}
                  onConfirm={async () => {
                    const result = await call('revokeOtherSessions');
                    action.finish(`Signed out ${count(result.count ?? 0, 'other session')}.`);
                    loaded.reload();
                  }}
                >
                  <p>
                    Every session of this account but this one ends at once ({count(others.length, 'session')}{' '}
                    listed): each device or program there must sign in again.
                  </p>
                </Confirm>
              )}
              {pending !== undefined && pending !== 'others' && (
                <Confirm
                  title="Revoke this session?"
                  confirmLabel="Revoke session"
                  onCancel={action.cancel}
                  onConfirm={async () => {
                    await call('revokeSessionById', { body: { id: pending.id } });
                    action.finish(`The session of ${pending.device || 'an unknown device'} is revoked.`);
                    loaded.reload();
                  }}
                >
                  <p>
                    The session of <strong>{pending.device || 'an unknown device'}</strong> from {pending.ip},
                    signed in {when(pending.createdAt)}, ends at once.
                  </p>
                </Confirm>
              )}
            </>
          );
        }}
      </Show>
      {action.done && <Done>{action.done}</Done>}
    </Section>
  );
}

function SessionTable(props: { items: readonly Session[]; onRevoke: (session: Session) => void }) {
  return (
    <TableBox label="Your sessions">
      <table>
        <caption>Your sessions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">IP address</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Current</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((session) => (
            <tr key={session.id}>
              <td class="cell-wrap" id={`session-${session.id}`}>
                {session.device || 'Unknown device'}
              </td>
              <td class="nowrap">{session.ip}</td>
              <td class="nowrap">{when(session.createdAt)}</td>
              <td class="nowrap">{when(session.expiresAt)}</td>
              <td>{session.current ? 'This session' : 'No'}</td>
              <td>
                {!session.current && (
                  <button
                    type="button"
                    class="secondary"
                    aria-describedby={`session-${session.id}`}
                    onClick={() => props.onRevoke(session)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

type Connection = Answer<'listConnections'>['items'][number];

function Connections() {
  const loaded = useLoad(() => call('listConnections'), []);
  const action = useConfirmed<Connection>();
  const { pending } = action;
  return (
    <Section title="OAuth connections">
      <p class="muted">Programs you allowed to act for you through an application's MCP endpoint.</p>
      <Show loaded={loaded} what="your OAuth connections">
        {({ items }) =>
          items.length === 0 ? (
            <Empty>No program holds access to your account.</Empty>
          ) : (
            <ConnectionTable items={items} onRevoke={action.ask} />
          )
        }
      </Show>
      {pending && (
        <Confirm
          title={`Revoke the access of ${pending.clientName}?`}
          confirmLabel="Revoke access"
          onCancel={action.cancel}
          onConfirm={async () => {
            const result = await call('revokeConnection', { body: { id: pending.id } });
            action.finish(
              result.revoked
                ? `${pending.clientName} no longer has access.`
                : `${pending.clientName} had no access left to revoke.`,
            );
            loaded.reload();
          }}
        >
          <p>
            Its tokens stop working at once; it must ask you again for access to{' '}
            <code>{pending.resource}</code>.
          </p>
        </Confirm>
      )}
      {action.done && <Done>{action.done}</Done>}
    </Section>
  );
}

function ConnectionTable(props: {
  items: readonly Connection[];
  onRevoke: (connection: Connection) => void;
}) {
  return (
    <TableBox label="Your OAuth connections">
      <table>
        <caption>Your OAuth connections, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Program</th>
            <th scope="col">Access to</th>
            <th scope="col">Scopes</th>
            <th scope="col">Connected</th>
            <th scope="col">Last used</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((connection) => (
            <tr key={connection.id}>
              <td class="cell-wrap" id={`connection-${connection.id}`}>
                {connection.clientName}
                <br />
                <code class="muted">{connection.clientId}</code>
              </td>
              <td class="cell-wrap">
                <code>{connection.resource}</code>
              </td>
              <td class="cell-wrap">{connection.scopes.join(', ') || '—'}</td>
              <td class="nowrap">{when(connection.createdAt)}</td>
              <td class="nowrap">{when(connection.lastUsedAt)}</td>
              <td>
                <button
                  type="button"
                  class="secondary"
                  aria-describedby={`connection-${connection.id}`}
                  onClick={() => props.onRevoke(connection)}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
