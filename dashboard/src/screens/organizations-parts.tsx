/**
 * Pieces the screens share: a plan's usage in words, a card with its heading, the roles and a
 * labelled choice of one, and the short-lived "done" line after a change.
 */
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { mayManageRank, ROLES } from '../../../shared/tenancy/permissions.ts';
import type { Organization } from '../frames.tsx';
import type { Role } from '../permissions.ts';
import { Done } from '../ui.tsx';
import { count } from './insights-parts.tsx';

/** Every role, highest first (docs/api.md "Permission matrix"). */
export { ROLES };

/** "2 of 3 applications", or "2 applications (no limit)" for a plan without a cap (docs/api.md "Organizations", Plans). */
export function applicationUsage(organization: Organization): string {
  const { applications } = organization.usage;
  const limit = organization.plan.applicationLimit;
  return limit === null
    ? `${count(applications, 'application')} (no limit)`
    : `${applications} of ${count(limit, 'application')}`;
}

/** Whether the plan holds no more applications: a new one answers 403 PLAN_LIMIT_REACHED. */
const atApplicationCap = (organization: Organization): boolean =>
  organization.plan.applicationLimit !== null &&
  organization.usage.applications >= organization.plan.applicationLimit;

/** Why a new application will be refused, for an organization at its plan's cap. */
export function CapWarning(props: { organization: Organization }) {
  const { plan } = props.organization;
  if (!atApplicationCap(props.organization)) return null;
  return (
    <p class="warning">
      This organization holds all {plan.applicationLimit} applications its {plan.name} plan allows: a new one
      will be refused until one is deleted. Only the service's operator can change the plan.
    </p>
  );
}

export const roleLabel: Record<Role, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** The roles `actor` may grant: at most its own (docs/api.md "Permission matrix"). */
export const grantableRoles = (actor: Role): Role[] => ROLES.filter((role) => mayManageRank(actor, role));

/** Whether `actor` may revoke a pending invitation of `role`: one it could send (docs/api.md "Organizations"). */
export const mayRevokeInvitation = (actor: Role, role: Role): boolean => mayManageRank(actor, role);

/** A card of the screen with its `h2`. */
export function Section(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  const id = useId();
  return (
    <section class="card" aria-labelledby={id}>
      <div class="section-head">
        <h2 id={id}>{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** A labelled `select` of roles. */
export function RoleSelect(props: {
  label: string;
  roles: readonly Role[];
  value: Role;
  onChange: (role: Role) => void;
  /** Visually hidden label (inside a table row, where the column header says it). */
  hiddenLabel?: boolean;
}) {
  const id = useId();
  return (
    <span class="role-select">
      <label for={id} class={props.hiddenLabel ? 'visually-hidden' : undefined}>
        {props.label}
      </label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => {
          const chosen = props.roles.find((role) => role === (event.target as HTMLSelectElement).value);
          if (chosen) props.onChange(chosen);
        }}
      >
        {props.roles.map((role) => (
          <option key={role} value={role}>
            {roleLabel[role]}
          </option>
        ))}
      </select>
    </span>
  );
}

/** The line that says the last change worked; `say` sets it, a new change replaces it. */
export function useDone(initial?: string) {
  const [message, setMessage] = useState<ComponentChildren>(initial ?? null);
  return {
    say: setMessage,
    clear: () => setMessage(null),
    line: message ? <Done>{message}</Done> : null,
  };
}
