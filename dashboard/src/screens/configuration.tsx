/**
 * An application's configuration document (docs/api.md "Configuration and origin learning"): the
 * official origin, the synthetic test email domain, the OAuth resources, and social sign-in (its
 * providers and return URLs). Saved by an RFC 7396 merge patch of the keys that changed; a client
 * secret is write-only, sent only when a new one is typed. Members read it, with no Save.
 */
import { useState } from 'preact/hooks';
import { type Answer, type CallOptions, call } from '../api.ts';
import { ApplicationFrame } from '../frames.tsx';
import { can, type Role } from '../permissions.ts';
import type { ScreenProps } from '../screens.ts';
import { Confirm, ErrorNote, Field, type Loaded, Show, useLoad, useSubmit, when } from '../ui.tsx';
import { useDone } from './organizations-parts.tsx';
import { FormError, ListField, linesOf, listPaths } from './users-parts.tsx';

type View = Answer<'getConfiguration'>;
type Patch = CallOptions<'patchConfiguration'>['body'];
type ProviderName = keyof View['socialProviders'];

const PROVIDERS: readonly { name: ProviderName; label: string }[] = [
  { name: 'google', label: 'Google' },
  { name: 'github', label: 'GitHub' },
  { name: 'microsoft', label: 'Microsoft' },
  { name: 'oidc', label: 'OpenID Connect' },
];
/** docs/api.md: at most 20 resources and 20 return URLs. */
const MAX_LIST = 20;

/**
 * The body paths of a provider that a field shows the API's issues beside: its client ID and secret,
 * and OpenID Connect's issuer. `enabled` is a checkbox with no message of its own: an issue of it is
 * listed above the Save button, with any other the form has no field for.
 */
const providerPaths = (name: ProviderName): string[] =>
  ['clientId', 'clientSecret', ...(name === 'oidc' ? ['issuer'] : [])].map(
    (key) => `socialProviders.${name}.${key}`,
  );
const BASE_FIELDS = [
  'origin',
  'authentication.syntheticEmailDomain',
  ...listPaths('oauth.resources', MAX_LIST),
];
/** Only a role that may change social sign-in has its fields (`socialSignIn.write`). */
const SOCIAL_FIELDS = [
  ...listPaths('socialReturnUrls', MAX_LIST),
  ...PROVIDERS.flatMap(({ name }) => providerPaths(name)),
];
/** Every body path a field of the form shows the API's issues beside. */
const fieldsOf = (socialSignIn: boolean): readonly string[] =>
  socialSignIn ? [...BASE_FIELDS, ...SOCIAL_FIELDS] : BASE_FIELDS;

interface ProviderDraft {
  enabled: boolean;
  clientId: string;
  issuer: string;
  /** A new secret, sent only when typed. */
  secret: string;
}

interface Draft {
  origin: string;
  domain: string;
  resources: string;
  returnUrls: string;
  providers: Record<ProviderName, ProviderDraft>;
}

const issuerOf = (view: View, name: ProviderName): string => {
  const oidc = view.socialProviders.oidc;
  return name === 'oidc' && oidc ? oidc.issuer : '';
};

const draftOf = (view: View): Draft => ({
  origin: view.origin ?? '',
  domain: view.authentication.syntheticEmailDomain ?? '',
  resources: view.oauth.resources.join('\n'),
  returnUrls: view.socialReturnUrls.join('\n'),
  providers: Object.fromEntries(
    PROVIDERS.map(({ name }) => {
      const provider = view.socialProviders[name];
      return [
        name,
        {
          enabled: provider?.enabled ?? false,
          clientId: provider?.clientId ?? '',
          issuer: issuerOf(view, name),
          secret: '',
        },
      ];
    }),
  ) as Record<ProviderName, ProviderDraft>,
});

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, index) => item === b[index]);

type ProviderPatch = { enabled?: boolean; clientId?: string; issuer?: string; clientSecret?: string };

/** What one provider's draft changes, or undefined. A provider not configured is sent whole. */
function providerPatch(view: View, name: ProviderName, draft: ProviderDraft): ProviderPatch | undefined {
  const stored = view.socialProviders[name];
  const clientId = draft.clientId.trim();
  const issuer = draft.issuer.trim();
  const patch: ProviderPatch = {};
  if (stored === null) {
    if (!clientId && !draft.enabled && !draft.secret && !issuer) return undefined;
    Object.assign(patch, { enabled: draft.enabled, clientId });
    if (name === 'oidc') patch.issuer = issuer;
  } else {
    if (draft.enabled !== stored.enabled) patch.enabled = draft.enabled;
    if (clientId !== stored.clientId) patch.clientId = clientId;
    if (name === 'oidc' && issuer !== issuerOf(view, name)) patch.issuer = issuer;
  }
  if (draft.secret) patch.clientSecret = draft.secret;
  return Object.keys(patch).length ? patch : undefined;
}

/** The merge patch (RFC 7396) of the keys the draft changed; `socialSignIn` only when allowed. */
function patchOf(view: View, draft: Draft, socialSignIn: boolean): NonNullable<Patch> {
  const patch: NonNullable<Patch> = {};
  const origin = draft.origin.trim() || null;
  if (origin !== view.origin) patch.origin = origin;
  const domain = draft.domain.trim() || null;
  if (domain !== view.authentication.syntheticEmailDomain)
    patch.authentication = { syntheticEmailDomain: domain };
  const resources = linesOf(draft.resources);
  if (!sameList(resources, view.oauth.resources)) patch.oauth = { resources };
  if (!socialSignIn) return patch;
  const returnUrls = linesOf(draft.returnUrls);
  if (!sameList(returnUrls, view.socialReturnUrls)) patch.socialReturnUrls = returnUrls;
  const providers: Record<string, ProviderPatch> = {};
  for (const { name } of PROVIDERS) {
    const changed = providerPatch(view, name, draft.providers[name]);
    if (changed) providers[name] = changed;
  }
  if (Object.keys(providers).length) patch.socialProviders = providers;
  return patch;
}

type Story = { readonly how: 'learned' | 'set' | 'removed'; readonly at: string; readonly by: string } | null;

/**
 * Whether the origin was learned or set, from the newest entry of the trail that changed it
 * (docs/api.md "Audit trail": `origin.learned` by the service, `configuration.changed` by a member
 * or a secret key). Null when none of the newest entries did.
 */
async function originStory(applicationId: string): Promise<Story> {
  const trail = await call('listAudit', {
    params: { applicationId },
    query: { target: applicationId, limit: '100' },
  });
  for (const entry of trail.items) {
    const change = entry.changes.find((item) => item.path === 'origin');
    if (!change) continue;
    const by =
      entry.actor.kind === 'user'
        ? entry.actor.email
        : entry.actor.kind === 'key'
          ? `the secret key ${entry.actor.prefix}…`
          : 'the service';
    const how = entry.action === 'origin.learned' ? 'learned' : change.to === null ? 'removed' : 'set';
    return { how, at: entry.at, by };
  }
  return null;
}

/** The origin's state, learned or set, in one sentence, and the disposable-origin rule in another. */
function OriginHint(props: { origin: string | null; story: Loaded<Story> | null }) {
  const { story } = props;
  let state = 'Whether it was learned or set is in the audit trail, which owners and admins read.';
  if (props.origin === null) {
    state =
      "None yet: the first request from a real https origin that carries one of the application's keys sets it.";
  } else if (story?.state === 'loading') {
    state = 'Reading the audit trail for whether it was learned or set…';
  } else if (story?.state === 'ready' && story.data?.how === 'learned') {
    state = `Learned on ${when(story.data.at)} from a request that carried one of the application's keys: only a hint, since anyone holding the public key can send any origin, so replace it if it is not yours.`;
  } else if (story?.state === 'ready' && story.data?.how === 'set') {
    state = `Set by ${story.data.by} on ${when(story.data.at)}.`;
  } else if (story?.state === 'ready') {
    state = "The audit trail's latest entries do not say whether it was learned or set.";
  }
  return (
    <>
      {state} Origins of preview deployments, hosted development environments, tunnels, and loopback, private
      or reserved hosts sign in as usual but are never learned; empty this field to let the next real origin
      be learned.
    </>
  );
}

/** The trail could not be read: its error, with a retry. */
const StoryError = (props: { story: Loaded<Story> | null }) =>
  props.story?.state === 'error' ? (
    <ErrorNote error={props.story.error} onRetry={props.story.reload} />
  ) : null;

function ProviderFields(props: {
  name: ProviderName;
  label: string;
  view: View;
  draft: ProviderDraft;
  error: unknown;
  onChange: (draft: ProviderDraft) => void;
  onRemove: () => void;
}) {
  const { name, label, draft } = props;
  const stored = props.view.socialProviders[name];
  const path = `socialProviders.${name}`;
  const set = (change: Partial<ProviderDraft>) => props.onChange({ ...draft, ...change });
  const text = (key: 'clientId' | 'issuer' | 'secret') => (event: Event) =>
    set({ [key]: (event.target as HTMLInputElement).value });
  return (
    <fieldset>
      <legend>{label}</legend>
      {stored === null && <p class="hint">Not configured: fill in its client to add it.</p>}
      <label>
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(event) => set({ enabled: event.currentTarget.checked })}
        />
        {label} sign-in enabled
      </label>
      <Field
        label={`${label} client ID`}
        value={draft.clientId}
        autoComplete="off"
        field={`${path}.clientId`}
        error={props.error}
        onInput={text('clientId')}
      />
      {name === 'oidc' && (
        <Field
          label={`${label} issuer`}
          value={draft.issuer}
          autoComplete="off"
          inputMode="url"
          field={`${path}.issuer`}
          error={props.error}
          hint="An https URL with no query or fragment."
          onInput={text('issuer')}
        />
      )}
      <Field
        label={`${label} client secret`}
        type="password"
        value={draft.secret}
        autoComplete="new-password"
        field={`${path}.clientSecret`}
        error={props.error}
        hint={`Stored secret: ${stored?.clientSecret.set ? 'set' : 'not set'}. It is never shown; type a new one to replace it, or leave this empty to keep it. A new client ID or issuer needs the secret again.`}
        onInput={text('secret')}
      />
      {stored !== null && (
        <button type="button" class="secondary" onClick={props.onRemove}>
          Remove {label}
        </button>
      )}
    </fieldset>
  );
}

function ConfigurationForm(props: {
  applicationId: string;
  view: View;
  role: Role;
  story: Loaded<Story> | null;
  onSaved: (message: string) => void;
}) {
  const { view } = props;
  const socialSignIn = can(props.role, 'socialSignIn.write');
  const fields = fieldsOf(socialSignIn);
  const [draft, setDraft] = useState(() => draftOf(view));
  const [removing, setRemoving] = useState<{ name: ProviderName; label: string } | null>(null);
  const [unchanged, setUnchanged] = useState(false);
  const params = { applicationId: props.applicationId };
  const save = useSubmit(
    async () => {
      const patch = patchOf(view, draft, socialSignIn);
      if (Object.keys(patch).length === 0) return false;
      await call('patchConfiguration', { params, body: patch });
      return true;
    },
    {
      fields,
      onDone: (saved) => {
        setUnchanged(!saved);
        if (saved) props.onSaved('Configuration saved.');
      },
    },
  );
  const edit = (change: Partial<Draft>) => {
    setUnchanged(false);
    setDraft((previous) => ({ ...previous, ...change }));
  };
  const text = (key: 'origin' | 'domain') => (event: Event) =>
    edit({ [key]: (event.target as HTMLInputElement).value });
  return (
    <>
      <form onSubmit={save.submit} noValidate>
        <section class="card">
          <h2>Official origin</h2>
          <Field
            label="Official origin"
            value={draft.origin}
            inputMode="url"
            autoComplete="off"
            spellcheck={false}
            placeholder="https://app.example.com"
            field="origin"
            error={save.error}
            hint={<OriginHint origin={view.origin} story={props.story} />}
            onInput={text('origin')}
          />
          <StoryError story={props.story} />
        </section>
        <section class="card">
          <h2>Test addresses</h2>
          <Field
            label="Synthetic test email domain"
            value={draft.domain}
            autoComplete="off"
            spellcheck={false}
            placeholder="bots.acme.test"
            field="authentication.syntheticEmailDomain"
            error={save.error}
            hint="A domain under .test, .example, .invalid or .localhost. Its addresses are never mailed: the secret key reads their codes with POST /auth/code/peek."
            onInput={text('domain')}
          />
        </section>
        <section class="card">
          <h2>OAuth resources</h2>
          <ListField
            label="OAuth resources"
            value={draft.resources}
            field="oauth.resources"
            error={save.error}
            hint="One https URI a line, at most 20. A new one must publish protected resource metadata that names this service."
            onInput={(resources) => edit({ resources })}
          />
        </section>
        <section class="card">
          <h2>Social sign-in</h2>
          {socialSignIn ? (
            <>
              {PROVIDERS.map(({ name, label }) => (
                <ProviderFields
                  key={name}
                  name={name}
                  label={label}
                  view={view}
                  draft={draft.providers[name]}
                  error={save.error}
                  onChange={(provider) => edit({ providers: { ...draft.providers, [name]: provider } })}
                  onRemove={() => setRemoving({ name, label })}
                />
              ))}
              <ListField
                label="Social return URLs"
                value={draft.returnUrls}
                field="socialReturnUrls"
                error={save.error}
                hint="The https URLs social sign-in may send the browser back to, one a line, matched exactly."
                onInput={(returnUrls) => edit({ returnUrls })}
              />
            </>
          ) : (
            <SocialFacts view={view} />
          )}
        </section>
        <FormError error={save.formError} fields={fields} />
        {unchanged && <p role="status">Nothing to save: no value changed.</p>}
        <button type="submit" disabled={save.busy}>
          Save
        </button>
      </form>
      {removing && (
        <Confirm
          title={`Remove ${removing.label}?`}
          confirmLabel="Remove"
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            await call('patchConfiguration', {
              params,
              body: { socialProviders: { [removing.name]: null } },
            });
            setRemoving(null);
            props.onSaved(`${removing.label} removed.`);
          }}
        >
          <p>Its client ID and secret are deleted, and nobody signs in with {removing.label} any more.</p>
        </Confirm>
      )}
    </>
  );
}

const listText = (items: readonly string[]) => (items.length ? items.join(', ') : 'None');

function SocialFacts(props: { view: View }) {
  return (
    <dl class="facts">
      {PROVIDERS.map(({ name, label }) => {
        const provider = props.view.socialProviders[name];
        return [
          <dt key={`${name}-term`}>{label}</dt>,
          <dd key={`${name}-value`}>
            {provider
              ? `${provider.enabled ? 'Enabled' : 'Disabled'}; client ID ${provider.clientId}; secret ${provider.clientSecret.set ? 'set' : 'not set'}${name === 'oidc' ? `; issuer ${issuerOf(props.view, name)}` : ''}`
              : 'Not configured'}
          </dd>,
        ];
      })}
      <dt>Social return URLs</dt>
      <dd>{listText(props.view.socialReturnUrls)}</dd>
    </dl>
  );
}

/** What a member sees: the values, no form. */
function ConfigurationFacts(props: { view: View; story: Loaded<Story> | null }) {
  const { view } = props;
  return (
    <>
      <section class="card">
        <h2>Settings</h2>
        <dl class="facts">
          <dt>Official origin</dt>
          <dd>
            {view.origin ?? 'None'}
            <span class="hint">
              {' '}
              <OriginHint origin={view.origin} story={props.story} />
            </span>
            <StoryError story={props.story} />
          </dd>
          <dt>Synthetic test email domain</dt>
          <dd>{view.authentication.syntheticEmailDomain ?? 'None'}</dd>
          <dt>OAuth resources</dt>
          <dd>{listText(view.oauth.resources)}</dd>
        </dl>
      </section>
      <section class="card">
        <h2>Social sign-in</h2>
        <SocialFacts view={view} />
      </section>
      <p class="muted">Owners and admins change the configuration.</p>
    </>
  );
}

function ConfigurationPanel(props: { applicationId: string; role: Role }) {
  const { applicationId, role } = props;
  const done = useDone();
  const loaded = useLoad(() => call('getConfiguration', { params: { applicationId } }), [applicationId]);
  const readsTrail = can(role, 'audit.read');
  const story = useLoad(
    () => (readsTrail ? originStory(applicationId) : Promise.resolve(null)),
    [applicationId, readsTrail],
  );
  return (
    <>
      {done.line}
      <Show loaded={loaded} what="the configuration">
        {(view) =>
          can(role, 'configuration.write') ? (
            <ConfigurationForm
              key={JSON.stringify(view)}
              applicationId={applicationId}
              view={view}
              role={role}
              story={readsTrail ? story : null}
              onSaved={(message) => {
                done.say(message);
                loaded.reload();
                story.reload();
              }}
            />
          ) : (
            <ConfigurationFacts view={view} story={readsTrail ? story : null} />
          )
        }
      </Show>
    </>
  );
}

export default function Configuration(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  return (
    <ApplicationFrame
      applicationId={applicationId}
      tab="Configuration"
      title={(application) => `Configuration of ${application.name}`}
    >
      {({ role }) => <ConfigurationPanel applicationId={applicationId} role={role} />}
    </ApplicationFrame>
  );
}
