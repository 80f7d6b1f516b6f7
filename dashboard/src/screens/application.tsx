/**
 * One application, tab "Overview" (docs/api.md "Applications"): its facts; its name, logo and
 * branding colours (managers; each refused field's message beside it); deleting it (owner), which
 * revokes its keys and leaves its users and their sessions out of reach.
 */
import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { type Application, ApplicationFrame, type Organization } from '../frames.tsx';
import { can } from '../permissions.ts';
import { href, navigate } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import { ConfirmButton, ErrorNote, Field, Link, useSubmit, when } from '../ui.tsx';
import { Section, useDone } from './organizations-parts.tsx';

export default function ApplicationScreen(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  const done = useDone();
  return (
    <ApplicationFrame applicationId={applicationId} tab="Overview">
      {({ application, organization, role, reload }) => (
        <>
          {done.line}
          <Facts application={application} organization={organization} />
          {can(role, 'applications.update') && (
            <Settings
              key={application.id}
              application={application}
              onSaved={() => {
                done.say('Application saved.');
                reload();
              }}
            />
          )}
          {can(role, 'applications.delete') && <DeleteApplication application={application} />}
        </>
      )}
    </ApplicationFrame>
  );
}

function Facts(props: { application: Application; organization: Organization }) {
  const { application, organization } = props;
  const { primaryColor, backgroundColor } = application.branding;
  return (
    <Section title="Overview">
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{application.id}</code>
        </dd>
        <dt>Organization</dt>
        <dd>
          <Link href={href('organizations', organization.id)}>{organization.name}</Link>
        </dd>
        <dt>Created</dt>
        <dd>{when(application.createdAt)}</dd>
        <dt>Logo</dt>
        <dd>{application.logoUrl ? <code>{application.logoUrl}</code> : 'None'}</dd>
        <dt>Primary colour</dt>
        <dd>{primaryColor ? <Swatch color={primaryColor} /> : 'Default'}</dd>
        <dt>Background colour</dt>
        <dd>{backgroundColor ? <Swatch color={backgroundColor} /> : 'Default'}</dd>
      </dl>
    </Section>
  );
}

function Swatch(props: { color: string }) {
  return (
    <span class="swatch-line">
      <span class="swatch" style={{ background: props.color }} aria-hidden="true" />
      <code>{props.color}</code>
    </span>
  );
}

/** The PATCH body (docs/api.md "Applications"): an empty logo removes it; branding is replaced whole. */
function settingsBody(name: string, logoUrl: string, primaryColor: string, backgroundColor: string) {
  const branding: { primaryColor?: string; backgroundColor?: string } = {};
  if (primaryColor.trim()) branding.primaryColor = primaryColor.trim();
  if (backgroundColor.trim()) branding.backgroundColor = backgroundColor.trim();
  return { name, logoUrl: logoUrl.trim() || null, branding };
}

function Settings(props: { application: Application; onSaved: () => void }) {
  const { application } = props;
  const [name, setName] = useState(application.name);
  const [logoUrl, setLogoUrl] = useState(application.logoUrl ?? '');
  const [primaryColor, setPrimaryColor] = useState(application.branding.primaryColor ?? '');
  const [backgroundColor, setBackgroundColor] = useState(application.branding.backgroundColor ?? '');
  const save = useSubmit(
    () =>
      call('updateApplication', {
        params: { applicationId: application.id },
        body: settingsBody(name, logoUrl, primaryColor, backgroundColor),
      }),
    {
      fields: ['name', 'logoUrl', 'branding.primaryColor', 'branding.backgroundColor'],
      onDone: props.onSaved,
    },
  );
  const text = (set: (value: string) => void) => (event: Event) =>
    set((event.target as HTMLInputElement).value);
  return (
    <Section title="Name and branding">
      <form onSubmit={save.submit} noValidate>
        <Field
          label="Name"
          name="name"
          required
          value={name}
          error={save.error}
          field="name"
          hint="Shown in sign-in emails and pages; it may not look like a web address."
          onInput={text(setName)}
        />
        <Field
          label="Logo URL"
          name="logoUrl"
          type="url"
          inputMode="url"
          value={logoUrl}
          error={save.error}
          field="logoUrl"
          hint="An https address of at most 2048 characters. Empty: no logo."
          onInput={text(setLogoUrl)}
        />
        <Field
          label="Primary colour"
          name="primaryColor"
          value={primaryColor}
          placeholder="#2d5be3"
          error={save.error}
          field="branding.primaryColor"
          hint="#rrggbb. Empty: the default."
          onInput={text(setPrimaryColor)}
        />
        <Field
          label="Background colour"
          name="backgroundColor"
          value={backgroundColor}
          placeholder="#ffffff"
          error={save.error}
          field="branding.backgroundColor"
          hint="#rrggbb. Empty: the default."
          onInput={text(setBackgroundColor)}
        />
        {save.formError !== undefined && <ErrorNote error={save.formError} />}
        <button type="submit" disabled={save.busy}>
          Save
        </button>
      </form>
    </Section>
  );
}

function DeleteApplication(props: { application: Application }) {
  const { application } = props;
  return (
    <Section title="Delete this application">
      <p>Its keys stop working at once and its users can no longer sign in. This cannot be undone.</p>
      <ConfirmButton
        label="Delete application"
        title={`Delete ${application.name}?`}
        typeToConfirm={application.name}
        confirmLabel="Delete application"
        onConfirm={async () => {
          await call('deleteApplication', { params: { applicationId: application.id } });
          navigate(href('organizations', application.organizationId), {
            notice: `Application ${application.name} deleted.`,
          });
        }}
      >
        {/* What deletion does: docs/api.md "Applications", Deleting an application. */}
        <ul>
          <li>All its API keys are revoked: they answer 401 on the next request.</li>
          <li>Its configuration is deleted with it, and its running impersonations end.</li>
          <li>
            Its end users, their sessions, its tenant organizations and its audit trail stay stored but out of
            reach: its users' tokens answer 401 at once, and nobody can sign in to it any more.
          </li>
          <li>It no longer counts against the organization's plan. Its id is never reused.</li>
        </ul>
      </ConfirmButton>
    </Section>
  );
}
