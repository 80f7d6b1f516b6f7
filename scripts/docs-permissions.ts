/**
 * Writes the permission matrix (shared/tenancy/permissions.ts) and the audit actions
 * (shared/tenancy/audit-actions.ts, with the routes that record each) into docs/api.md between their
 * markers: `npm run docs:permissions`. test/unit/permission-docs.test.ts fails when they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { routeList } from '../shared/routes.ts';
import { auditActions } from '../shared/tenancy/audit-actions.ts';
import { type Actor, permissions } from '../shared/tenancy/permissions.ts';

export const DOC = fileURLToPath(new URL('../docs/api.md', import.meta.url));

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

const regions = {
  permissions: renderPermissionTable,
  'audit-actions': renderAuditTable,
} as const;

/** The part of `doc` between a region's markers, or null without them. */
export function documentedTable(doc: string, region: keyof typeof regions = 'permissions'): string | null {
  const start = doc.indexOf(`<!-- ${region}:start -->`);
  const end = doc.indexOf(`<!-- ${region}:end -->`);
  if (start < 0 || end < start) return null;
  return doc.slice(start + `<!-- ${region}:start -->`.length, end).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let doc = readFileSync(DOC, 'utf8');
  for (const [region, render] of Object.entries(regions)) {
    const open = `<!-- ${region}:start -->`;
    const close = `<!-- ${region}:end -->`;
    const start = doc.indexOf(open);
    const end = doc.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs/api.md lacks ${open} … ${close}`);
    doc = `${doc.slice(0, start + open.length)}\n${render()}\n${doc.slice(end)}`;
  }
  writeFileSync(DOC, doc);
}
