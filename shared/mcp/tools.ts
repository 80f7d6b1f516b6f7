/**
 * The seven tools of an application's MCP endpoint (docs/mcp.md, Tools). Each reuses the management
 * API's domain function for the same read or write, on the application the token was issued for,
 * and names the action of the permission matrix (shared/tenancy/permissions.ts) that route checks:
 * a tool is listed and callable only when the token holds its scope AND the user's current role may
 * take that action, so no tool shows a member what the management API refuses them. Six read
 * (`auth:read`, actions every member holds), one writes (`auth:write`, owners and admins).
 */
import * as z from 'zod/mini';
import { ApplicationView } from '../contracts/management.ts';
import { Statistics } from '../contracts/statistics.ts';
import { ManagedUser, ManagedUserList, SessionsRevoked, TenantOrganizationList } from '../contracts/users.ts';
import type { Deps } from '../deps.ts';
import type { Scope } from '../oauth/model.ts';
import { applicationView } from '../tenancy/applications.ts';
import type { AuditRequest } from '../tenancy/audit.ts';
import { type Action, mayAct } from '../tenancy/permissions.ts';
import { readStatistics } from '../tenancy/statistics.ts';
import { StatisticsQuery } from '../tenancy/statistics-query.ts';
import { listTenantOrganizations } from '../tenancy/tenant-organizations.ts';
import { USER_AGENT_CHARS } from '../user-agent.ts';
import { getUser, listUsers, revokeUserSessions, searchUsers } from '../users/application-users.ts';
import type { McpPrincipal } from './principal.ts';

/** Paging, as tool arguments (numbers, not query strings): the management API's bounds. */
const Limit = z._default(z.int().check(z.minimum(1), z.maximum(100)), 20);
const Offset = z._default(z.int().check(z.minimum(0), z.maximum(10_000)), 0);
const PageInput = z.object({ limit: Limit, offset: Offset });
const UserInput = z.object({ userId: z.string().check(z.minLength(1), z.maxLength(100)) });
const SearchInput = z.object({
  q: z.string().check(z.minLength(1), z.maxLength(120)),
  limit: Limit,
  offset: Offset,
});

export interface ToolSpec<I extends z.ZodMiniType = z.ZodMiniType, O extends z.ZodMiniType = z.ZodMiniType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The scope the token must hold: the tool is listed and callable only with it. */
  readonly scope: Scope;
  /** The management API's action for the same read or write: the user's role must hold it too. */
  readonly action: Action;
  readonly input: I;
  readonly output: O;
  readonly run: (deps: Deps, principal: McpPrincipal, args: z.output<I>) => Promise<z.input<O>>;
}

/**
 * Who a tool's write names in the audit trail: the user the token was issued to (by id: the token
 * carries no address), from the request's peer, with the OAuth client that called beside its user agent.
 */
/** The user agent with the OAuth client after it, cut so the client always fits. */
function withClient(userAgent: string, clientId: string): string {
  const client = `(MCP client ${clientId})`.slice(0, USER_AGENT_CHARS);
  const room = USER_AGENT_CHARS - client.length - 1;
  return room > 0 && userAgent ? `${userAgent.slice(0, room)} ${client}` : client;
}

const mcpAudit = (principal: McpPrincipal): AuditRequest => ({
  actor: { kind: 'user', userId: principal.userId, email: '' },
  ip: principal.client?.ip ?? '',
  userAgent: withClient(principal.client?.userAgent ?? '', principal.clientId),
});

/** A tool in the list of every tool: its arguments are those its input schema parsed (shared/mcp/server.ts). */
const tool = <I extends z.ZodMiniType, O extends z.ZodMiniType>(spec: ToolSpec<I, O>): ToolSpec => ({
  ...spec,
  run: (deps, principal, args) => spec.run(deps, principal, args as z.output<I>),
});

export const TOOLS: readonly ToolSpec[] = [
  tool({
    name: 'auth_get_application',
    title: 'Application',
    description: 'The application this endpoint serves: name, logo, branding, organization, creation time.',
    scope: 'auth:read',
    action: 'applications.read',
    input: z.object({}),
    output: ApplicationView,
    run: async (_deps, { application }) => applicationView(application),
  }),
  tool({
    name: 'auth_get_statistics',
    title: 'Statistics',
    description:
      'Users, new users, sign-ins per UTC day over a range (from/to as YYYY-MM-DD, default the last 30 days) and active sessions now.',
    scope: 'auth:read',
    action: 'statistics.read',
    input: StatisticsQuery,
    output: Statistics,
    run: (deps, { application }, range) => readStatistics(deps, application, range),
  }),
  tool({
    name: 'auth_search',
    title: 'Search users',
    description: "The application's end users whose email address or name starts with q (case-insensitive).",
    scope: 'auth:read',
    action: 'users.read',
    input: SearchInput,
    output: ManagedUserList,
    run: (deps, { application }, { q, limit, offset }) =>
      searchUsers(deps, application, q, { limit, offset }),
  }),
  tool({
    name: 'auth_list_users',
    title: 'List users',
    description: "One page of the application's end users, by email address.",
    scope: 'auth:read',
    action: 'users.read',
    input: PageInput,
    output: ManagedUserList,
    run: (deps, { application }, page) => listUsers(deps, application, page),
  }),
  tool({
    name: 'auth_get_user',
    title: 'User',
    description: "One end user's details: profile, whether disabled, last sign-in.",
    scope: 'auth:read',
    action: 'users.read',
    input: UserInput,
    output: ManagedUser,
    run: (deps, { application }, { userId }) => getUser(deps, application, userId),
  }),
  tool({
    name: 'auth_list_organizations',
    title: 'Tenant organizations',
    description: "The application's tenant organizations (its customers' teams), with their member counts.",
    scope: 'auth:read',
    action: 'tenantOrganizations.read',
    input: PageInput,
    output: TenantOrganizationList,
    run: (deps, { application }, page) => listTenantOrganizations(deps, application, page),
  }),
  tool({
    name: 'auth_revoke_user_sessions',
    title: "Revoke a user's sessions",
    description: 'Ends every session of one end user at once (owner or admin: scope auth:write).',
    scope: 'auth:write',
    action: 'users.write',
    input: UserInput,
    output: SessionsRevoked,
    run: (deps, principal, { userId }) =>
      revokeUserSessions(deps, mcpAudit(principal), principal.application, userId),
  }),
];

/** The tool of that name, if any. */
/** Whether the caller may see and call `spec`: its scope held, and its matrix action allowed to the role. */
export const mayUseTool = (spec: ToolSpec, principal: McpPrincipal): boolean =>
  principal.scopes.includes(spec.scope) && mayAct(spec.action, principal.role);

export const toolNamed = (name: unknown): ToolSpec | undefined => TOOLS.find((spec) => spec.name === name);
