/**
 * Every action the audit trail records, with the trail it goes to and what it names as its target
 * (docs/api.md "Audit trail" prints this table). Routes declare the actions they record in the route
 * table (`audit`), and test/http/audit-trail.test.ts proves each committed change writes exactly one.
 *
 * - `organization` trail: the organization's own life, its members and its invitations, and the
 *   birth and death of its applications (an application's own trail is gone with it);
 * - `application` trail: everything inside one application.
 */
type AuditTrailKind = 'organization' | 'application';

export type AuditTargetType =
  | 'organization'
  | 'member'
  | 'invitation'
  | 'application'
  | 'apiKey'
  | 'configuration'
  | 'user'
  | 'tenantOrganization'
  | 'tenantMember';

interface ActionRule {
  readonly trail: AuditTrailKind;
  readonly target: AuditTargetType;
  readonly summary: string;
  /** Recorded by the handler chain on any key request that writes the table, not by routes. */
  readonly byChain?: true;
}

export const auditActions = {
  'organization.created': {
    trail: 'organization',
    target: 'organization',
    summary: 'An organization was created',
  },
  'organization.updated': { trail: 'organization', target: 'organization', summary: 'Its name changed' },
  'organization.deleted': { trail: 'organization', target: 'organization', summary: 'It was deleted' },
  'member.roleChanged': { trail: 'organization', target: 'member', summary: "A member's role changed" },
  'member.removed': { trail: 'organization', target: 'member', summary: 'A member was removed' },
  'member.left': { trail: 'organization', target: 'member', summary: 'A member left' },
  'invitation.sent': { trail: 'organization', target: 'invitation', summary: 'An address was invited' },
  'invitation.revoked': { trail: 'organization', target: 'invitation', summary: 'An invitation was revoked' },
  'invitation.accepted': {
    trail: 'organization',
    target: 'invitation',
    summary: 'An invitation was accepted (the new member is the actor)',
  },
  'invitation.declined': {
    trail: 'organization',
    target: 'invitation',
    summary: 'An invitation was declined',
  },
  'application.created': {
    trail: 'organization',
    target: 'application',
    summary: 'An application was created',
  },
  'application.deleted': {
    trail: 'organization',
    target: 'application',
    summary: 'An application was deleted: its keys revoked; its users and trail stay stored, out of reach',
  },
  'application.updated': {
    trail: 'application',
    target: 'application',
    summary: 'Its name, logo or branding changed',
  },
  'apiKey.created': { trail: 'application', target: 'apiKey', summary: 'A key was created' },
  'apiKey.revoked': { trail: 'application', target: 'apiKey', summary: 'A key was revoked' },
  'configuration.changed': {
    trail: 'application',
    target: 'configuration',
    summary: 'Its configuration changed (social sign-in aside), the official origin included',
  },
  'origin.learned': {
    trail: 'application',
    target: 'configuration',
    summary: "The service learned the official origin from a key's request (the actor is `service`)",
    byChain: true,
  },
  'socialSignIn.changed': {
    trail: 'application',
    target: 'configuration',
    summary: 'Its social providers or return URLs changed',
  },
  'user.updated': {
    trail: 'application',
    target: 'user',
    summary: "A manager changed an end user's profile",
  },
  'user.disabled': { trail: 'application', target: 'user', summary: 'An end user was disabled' },
  'user.enabled': { trail: 'application', target: 'user', summary: 'An end user was enabled' },
  'user.deleted': { trail: 'application', target: 'user', summary: 'An end user was deleted' },
  'user.sessionsRevoked': {
    trail: 'application',
    target: 'user',
    summary: "A manager ended an end user's sessions",
  },
  'tenantOrganization.created': {
    trail: 'application',
    target: 'tenantOrganization',
    summary: 'A tenant organization was created',
  },
  'tenantOrganization.updated': {
    trail: 'application',
    target: 'tenantOrganization',
    summary: 'A tenant organization was renamed',
  },
  'tenantOrganization.deleted': {
    trail: 'application',
    target: 'tenantOrganization',
    summary: 'A tenant organization was deleted',
  },
  'tenantMember.added': {
    trail: 'application',
    target: 'tenantMember',
    summary: 'A tenant member was added',
  },
  'tenantMember.roleChanged': {
    trail: 'application',
    target: 'tenantMember',
    summary: "A tenant member's role changed",
  },
  'tenantMember.removed': {
    trail: 'application',
    target: 'tenantMember',
    summary: 'A tenant member was removed',
  },
  'impersonation.started': {
    trail: 'application',
    target: 'user',
    summary: 'A support user began acting as an end user',
  },
  'impersonation.ended': {
    trail: 'application',
    target: 'user',
    summary: 'An impersonation ended (`cause` says how)',
  },
} as const satisfies Record<string, ActionRule>;

export type AuditAction = keyof typeof auditActions;

export const AUDIT_ACTIONS = Object.keys(auditActions) as [AuditAction, ...AuditAction[]];

/** The actions of entries made by the generic change writer (impersonation and social sign-in have their own shapes). */
export type ChangeAction = Exclude<
  AuditAction,
  'impersonation.started' | 'impersonation.ended' | 'socialSignIn.changed'
>;
