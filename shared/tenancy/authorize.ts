import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import type { User } from '../identity/user.ts';
import { readApplicationNow } from '../store/applications.ts';
import { readMember, readOrganizationAndMember } from '../store/organizations.ts';
import type { ApiKey } from './api-keys.ts';
import { type Application, applicationFromRecord } from './applications.ts';
import type { MemberActor } from './members.ts';
import { type Organization, organizationFromRecord } from './organizations.ts';
import { type Action, type Actor, mayAct, permissions, type Role, type TargetKind } from './permissions.ts';

/**
 * What the check reads of a `manage` route's caller (shared/sessions/caller.ts resolves it): a
 * platform session, an application's end-user session, or an application's key.
 */
type ManageCaller =
  | { readonly kind: 'platformSession'; readonly session: { readonly user: User } }
  | {
      readonly kind: 'applicationSession';
      readonly session: { readonly user: User };
      readonly application: Application;
    }
  | { readonly kind: 'apiKey'; readonly key: Pick<ApiKey, 'type'>; readonly application: Application };

/** Who acts, as the matrix names it, with what the handler may need of it. */
export type Principal =
  | { kind: 'member'; role: Role; user: User }
  | { kind: 'secretKey' | 'publicKey' }
  | { kind: 'endUser'; user: User };

/** What a management route may act on, once the matrix allowed it. */
export interface PlatformGrant {
  target: 'platform';
  user: User;
}
export interface OrganizationGrant {
  target: 'organization';
  organization: Organization;
  principal: Principal;
}
export interface ApplicationGrant {
  target: 'application';
  application: Application;
  principal: Principal;
  /**
   * `application` came from a strongly consistent read (a member's request reads it so); a key's or
   * an end user's copy is the chain's eventually consistent one, which may lag the last write.
   */
  current: boolean;
}

export interface GrantByTarget {
  platform: PlatformGrant;
  organization: OrganizationGrant;
  application: ApplicationGrant;
}

export type GrantOf<A extends Action> = GrantByTarget[(typeof permissions)[A]['target']];

const actorOf = (principal: Principal): Actor =>
  principal.kind === 'member' ? principal.role : principal.kind;

/** Whether the grant's principal may also do `action` on its target (a second action within one route). */
export const grantAllows = (grant: ApplicationGrant, action: Action): boolean =>
  mayAct(action, actorOf(grant.principal));

const notFound = (target: TargetKind) =>
  fail('notFound', target === 'organization' ? 'No such organization' : 'No such application');

/**
 * The one place a management request is allowed or refused (docs/api.md, "Management API"): the
 * caller's actor on the target is looked up, then the matrix decides. No credential was already 401
 * (auth `manage`); an unknown target, or one of another tenant, is 404 (never revealing that it
 * exists); a known target the actor may not touch is 403.
 */
export async function authorize(
  deps: Deps,
  caller: ManageCaller,
  permission: { readonly action: Action; readonly from?: 'params' | 'body' },
  request: { params: unknown; body: unknown },
): Promise<PlatformGrant | OrganizationGrant | ApplicationGrant> {
  const { action } = permission;
  const target = permissions[action].target as TargetKind;
  if (target === 'platform') {
    if (caller.kind !== 'platformSession') {
      throw fail('forbidden', 'Only a platform session (signed in without an API key) may do this');
    }
    return { target, user: caller.session.user };
  }
  const source = (permission.from === 'body' ? request.body : request.params) as Record<string, string>;
  const id = source[target === 'organization' ? 'organizationId' : 'applicationId'];
  if (typeof id !== 'string') throw new Error(`route of ${action} names no ${target} id`);
  const grant =
    target === 'organization'
      ? await organizationGrant(deps, caller, id)
      : await applicationGrant(deps, caller, id);
  if (!mayAct(action, actorOf(grant.principal))) {
    throw fail('forbidden', `A ${describe(grant.principal)} may not do this`);
  }
  return grant;
}

const describe = (principal: Principal): string =>
  principal.kind === 'member'
    ? `${principal.role} of the organization`
    : { secretKey: 'secret key', publicKey: 'public key', endUser: "session of the application's end user" }[
        principal.kind
      ];

async function organizationGrant(deps: Deps, caller: ManageCaller, id: string): Promise<OrganizationGrant> {
  if (caller.kind !== 'platformSession') {
    // Keys and end users act within one application: its own organization is known, others are not.
    if (caller.application.organizationId !== id) throw notFound('organization');
    const principal: Principal =
      caller.kind === 'apiKey'
        ? { kind: caller.key.type === 'secret' ? 'secretKey' : 'publicKey' }
        : { kind: 'endUser', user: caller.session.user };
    throw fail('forbidden', `A ${describe(principal)} may not act on the organization`);
  }
  const user = caller.session.user;
  const found = await readOrganizationAndMember(deps.db, id, user.id);
  if (!found.organization || !found.member) throw notFound('organization');
  const organization = organizationFromRecord(found.organization);
  // Tenant organizations are managed through their application's routes.
  if (organization.kind !== 'platform') throw notFound('organization');
  return {
    target: 'organization',
    organization,
    principal: { kind: 'member', role: found.member.role, user },
  };
}

async function applicationGrant(deps: Deps, caller: ManageCaller, id: string): Promise<ApplicationGrant> {
  if (caller.kind !== 'platformSession') {
    if (caller.application.id !== id) throw notFound('application');
    const principal: Principal =
      caller.kind === 'applicationSession'
        ? { kind: 'endUser', user: caller.session.user }
        : { kind: caller.key.type === 'secret' ? 'secretKey' : 'publicKey' };
    return { target: 'application', application: caller.application, principal, current: false };
  }
  const user = caller.session.user;
  const record = await readApplicationNow(deps.db, id);
  if (!record) throw notFound('application');
  const application = applicationFromRecord(record);
  const member = await readMember(deps.db, application.organizationId, user.id);
  if (!member) throw notFound('application');
  return {
    target: 'application',
    application,
    principal: { kind: 'member', role: member.role, user },
    current: true,
  };
}

/** The role of a member principal; keys and end users hold none (their routes never show one). */
export function roleOf(principal: Principal): Role {
  if (principal.kind !== 'member') throw new Error(`a ${principal.kind} holds no role`);
  return principal.role;
}

/** Who changes a membership: a member with its role and id, or an application's secret key. */
export function memberActor(principal: Principal): MemberActor {
  if (principal.kind === 'member') {
    return { kind: 'member', role: principal.role, userId: principal.user.id, email: principal.user.email };
  }
  if (principal.kind === 'secretKey') return { kind: 'secretKey' };
  throw new Error(`a ${principal.kind} changes no membership`);
}
