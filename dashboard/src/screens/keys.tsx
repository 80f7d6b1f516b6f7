/**
 * One application, tab "API keys" (docs/api.md "API keys"): its keys by prefix; creating a public or
 * secret key (managers; at most 20 active: API_KEY_LIMIT_REACHED), whose full key this screen shows
 * once, as only the creation answer holds it; revoking one (managers), which answers 401 from the
 * very next request.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, call } from '../api.ts';
import { ApplicationFrame } from '../frames.tsx';
import { can, type Role } from '../permissions.ts';
import type { ScreenProps } from '../screens.ts';
import { Confirm, Done, Empty, ErrorNote, Show, TableBox, useLoad, useSubmit, when } from '../ui.tsx';
import { Section, useDone } from './organizations-parts.tsx';

type ApiKey = Answer<'listApiKeys'>['items'][number];
type NewKey = Answer<'createApiKey'>;
type KeyType = ApiKey['type'];

const typeLabel: Record<KeyType, string> = { public: 'Public', secret: 'Secret' };

export default function Keys(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  return (
    <ApplicationFrame applicationId={applicationId} tab="API keys" title={(a) => `API keys of ${a.name}`}>
      {({ application, role }) => <KeyScreen applicationId={application.id} role={role} />}
    </ApplicationFrame>
  );
}

function KeyScreen(props: { applicationId: string; role: Role }) {
  const keys = useLoad(
    () => call('listApiKeys', { params: { applicationId: props.applicationId } }),
    [props.applicationId],
  );
  const done = useDone();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<NewKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const mayCreate = can(props.role, 'apiKeys.create');
  const mayRevoke = can(props.role, 'apiKeys.revoke');
  return (
    <>
      {done.line}
      {created && <CreatedKey created={created} onDismiss={() => setCreated(null)} />}
      <Section
        title="Keys"
        actions={
          mayCreate &&
          !creating && (
            <button type="button" onClick={() => setCreating(true)}>
              New key
            </button>
          )
        }
      >
        <p class="hint">
          A public key (<code>pu_…</code>) belongs in browser code; a secret key (<code>sk_…</code>) manages
          the application from a server and must never reach a browser. An application holds at most 20 active
          keys.
        </p>
        {creating && (
          <NewKeyForm
            applicationId={props.applicationId}
            onCancel={() => setCreating(false)}
            onCreated={(key) => {
              setCreating(false);
              setCreated(key);
              done.clear();
              keys.reload();
            }}
          />
        )}
        <Show loaded={keys} what="the keys">
          {(list) =>
            list.items.length === 0 ? (
              <Empty>This application has no key yet.</Empty>
            ) : (
              <KeyTable keys={list.items} mayRevoke={mayRevoke} onRevoke={setRevoking} />
            )
          }
        </Show>
      </Section>
      {revoking && (
        <Confirm
          title={`Revoke the ${revoking.type} key ${revoking.prefix}…?`}
          confirmLabel="Revoke key"
          onCancel={() => setRevoking(null)}
          onConfirm={async () => {
            await call('revokeApiKey', {
              params: { applicationId: props.applicationId, keyId: revoking.id },
            });
            setRevoking(null);
            if (created?.id === revoking.id) setCreated(null);
            keys.reload();
            done.say(`Key ${revoking.prefix}… revoked.`);
          }}
        >
          <p>
            Every request made with it answers 401 from the very next one. This cannot be undone: whatever
            uses it needs a new key.
          </p>
        </Confirm>
      )}
    </>
  );
}

function KeyTable(props: { keys: readonly ApiKey[]; mayRevoke: boolean; onRevoke: (key: ApiKey) => void }) {
  return (
    <TableBox label="API keys">
      <table>
        <thead>
          <tr>
            <th scope="col">Prefix</th>
            <th scope="col">Type</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Revoked</th>
            {props.mayRevoke && <th scope="col">Change</th>}
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => (
            <tr key={key.id}>
              <td id={`key-${key.id}`}>
                <code>{key.prefix}…</code>
              </td>
              <td>{typeLabel[key.type]}</td>
              <td>{when(key.createdAt)}</td>
              <td>{key.lastUsedAt ? when(key.lastUsedAt) : 'Never'}</td>
              <td>{key.revokedAt ? when(key.revokedAt) : 'Active'}</td>
              {props.mayRevoke && (
                <td>
                  {!key.revokedAt && (
                    <button
                      type="button"
                      class="danger"
                      // "Revoke" on every row (scripts rely on it); the key's prefix says which.
                      aria-describedby={`key-${key.id}`}
                      onClick={() => props.onRevoke(key)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

function NewKeyForm(props: {
  applicationId: string;
  onCancel: () => void;
  onCreated: (key: NewKey) => void;
}) {
  const [type, setType] = useState<KeyType | null>(null);
  const create = useSubmit(
    () => {
      if (!type) return Promise.reject(new Error('Choose the type of the key: public or secret.'));
      return call('createApiKey', { body: { applicationId: props.applicationId, type } });
    },
    { onDone: props.onCreated },
  );
  return (
    <form onSubmit={create.submit} noValidate aria-labelledby="new-key">
      <h3 id="new-key">New key</h3>
      <fieldset>
        <legend>Type</legend>
        {(['public', 'secret'] as const).map((option) => (
          <label key={option}>
            <input
              type="radio"
              name="type"
              value={option}
              checked={type === option}
              onChange={() => setType(option)}
            />
            {typeLabel[option]}
          </label>
        ))}
      </fieldset>
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

/** The new key, shown this once (the service keeps only its hash), with a way to copy it. */
function CreatedKey(props: { created: NewKey; onDismiss: () => void }) {
  const { created } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const [copy, setCopy] = useState<
    { state: 'idle' } | { state: 'copied' } | { state: 'failed'; error: unknown }
  >({
    state: 'idle',
  });
  useEffect(() => {
    setCopy({ state: 'idle' });
    heading.current?.focus();
  }, [created.id]);
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopy({ state: 'copied' });
    } catch (error) {
      setCopy({ state: 'failed', error });
    }
  };
  return (
    <section class="card new-key" aria-labelledby="created-key">
      <h2 id="created-key" tabIndex={-1} ref={heading}>
        Your new {created.type} key
      </h2>
      <p class="warning">
        Copy it now: it will not be shown again. The service keeps only a hash of it; lost, it can only be
        revoked and replaced.
      </p>
      <code class="secret">{created.key}</code>
      <div class="buttons">
        <button type="button" onClick={copyKey}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={props.onDismiss}>
          I have copied it
        </button>
      </div>
      {copy.state === 'copied' && <Done>Copied to the clipboard.</Done>}
      {copy.state === 'failed' && (
        <ErrorNote
          error={
            new Error(
              `Could not copy the key (${copy.error instanceof Error ? copy.error.message : String(copy.error)}). Select it and copy it by hand.`,
            )
          }
        />
      )}
    </section>
  );
}
