/**
 * Writes the permission matrix (shared/tenancy/permissions.ts) into docs/api.md between its
 * markers: `npm run docs:permissions`. test/unit/permission-docs.test.ts fails when they differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Actor, permissions } from '../shared/tenancy/permissions.ts';

export const DOC = fileURLToPath(new URL('../docs/api.md', import.meta.url));
const START = '<!-- permissions:start -->';
const END = '<!-- permissions:end -->';

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

/** The part of `doc` between the markers, or null without them. */
export function documentedTable(doc: string): string | null {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) return null;
  return doc.slice(start + START.length, end).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/api.md lacks ${START} … ${END}`);
  writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${renderPermissionTable()}\n${doc.slice(end)}`);
}
