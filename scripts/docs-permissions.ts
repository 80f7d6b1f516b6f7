/**
 * The permission matrix (shared/tenancy/permissions.ts) and the audit actions
 * (shared/tenancy/audit-actions.ts, with the routes that record each) as docs/api.md shows them:
 * two regions of scripts/docs.ts.
 */
import { routeList } from '../shared/routes.ts';
import { auditActions } from '../shared/tenancy/audit-actions.ts';
import { type Actor, permissions } from '../shared/tenancy/permissions.ts';

const columns: Array<[Actor, string]> = [
  ['owner', 'owner'],
  ['admin', 'admin'],
  ['member', 'member'],
  ['secretKey', 'secret key'],
  ['publicKey', 'public key'],
  ['endUser', 'end user'],
];

/** The matrix as a Markdown table: one row per action, ✓ where the actor may. */
export function renderPermissionTable(): string {
  const header = `| Action | Target | ${columns.map(([, label]) => label).join(' | ')} |`;
  const rule = `|---|---|${columns.map(() => ':-:').join('|')}|`;
  const rows = Object.entries(permissions).map(([action, rule]) => {
    const allow = rule.allow as readonly Actor[];
    const cells =
      rule.target === 'platform'
        ? // No target yet: any platform session, whatever roles it holds elsewhere; never a key or end user.
          columns.map(([actor]) =>
            allow.includes('platformUser') && ['owner', 'admin', 'member'].includes(actor) ? '✓*' : '',
          )
        : columns.map(([actor]) => (allow.includes(actor) ? '✓' : ''));
    return `| \`${action}\` | ${rule.target} | ${cells.join(' | ')} |`;
  });
  return [header, rule, ...rows, '', '✓*: any platform session (the action has no target yet).'].join('\n');
}

/** Every audit action: its trail, what it names as target, what it means, and the routes that record it. */
export function renderAuditTable(): string {
  const rows = Object.entries(auditActions).map(([action, rule]) => {
    const recordedBy = routeList
      .filter((route) => (route.audit as readonly string[] | undefined)?.includes(action))
      .map((route) => `\`${route.method} ${route.path}\``);
    const by =
      'byChain' in rule
        ? 'the chain, on any request with a key to a route that writes'
        : recordedBy.join(', ');
    return `| \`${action}\` | ${rule.trail} | ${rule.target} | ${rule.summary} | ${by} |`;
  });
  return ['| Action | Trail | Target | Meaning | Recorded by |', '|---|---|---|---|---|', ...rows].join('\n');
}
