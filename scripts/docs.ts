/**
 * Every generated region of the docs, written from the code that defines it: `npm run docs`.
 * A region is the text between `<!-- name:start -->` and `<!-- name:end -->` in a Markdown file;
 * test/unit/generated-docs.test.ts fails, naming the region and this command, while one is stale.
 * Adding a region is one line of `regions` and the two markers in its file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { budgetTable } from '../fixtures/call-budgets/render.ts';
import { renderAlarms, renderSesRegions } from './docs-alarms.ts';
import { renderCounts } from './docs-counts.ts';
import { renderDashboardScreens } from './docs-dashboard.ts';
import { renderIdleCost } from './docs-idle-cost.ts';
import { renderContextKeys } from './docs-inputs.ts';
import { renderLimits, renderRateLimits } from './docs-limits.ts';
import { renderAuditTable, renderPermissionTable } from './docs-permissions.ts';
import { renderAccessProfiles, renderAuthModes, renderRouteErrors, renderRouteTable } from './docs-routes.ts';

export interface Region {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** The marker name: `<!-- region:start -->` … `<!-- region:end -->`. */
  readonly region: string;
  /** The region's text, from the code alone (no clock; the dashboard's sources are read as text). */
  readonly render: () => string;
}

export const regions: readonly Region[] = [
  { file: 'docs/api.md', region: 'permissions', render: renderPermissionTable },
  { file: 'docs/api.md', region: 'audit-actions', render: renderAuditTable },
  { file: 'docs/api.md', region: 'routes', render: renderRouteTable },
  { file: 'docs/api.md', region: 'auth-modes', render: renderAuthModes },
  { file: 'docs/api.md', region: 'route-errors', render: renderRouteErrors },
  { file: 'docs/api.md', region: 'limits', render: renderLimits },
  { file: 'docs/security.md', region: 'rate-limits', render: renderRateLimits },
  { file: 'docs/security.md', region: 'access-profiles', render: renderAccessProfiles },
  { file: 'docs/deploy.md', region: 'context-keys', render: renderContextKeys },
  { file: 'docs/deploy.md', region: 'counts', render: renderCounts },
  { file: 'docs/operations.md', region: 'idle-cost', render: renderIdleCost },
  { file: 'docs/operations.md', region: 'alarms', render: renderAlarms },
  { file: 'docs/deploy.md', region: 'ses-regions', render: renderSesRegions },
  { file: 'docs/data-model.md', region: 'calls-per-request', render: budgetTable('calls-per-request') },
  { file: 'docs/data-model.md', region: 'calls-impersonation', render: budgetTable('calls-impersonation') },
  { file: 'docs/data-model.md', region: 'calls-statistics', render: budgetTable('calls-statistics') },
  { file: 'docs/data-model.md', region: 'calls-users', render: budgetTable('calls-users') },
  { file: 'docs/data-model.md', region: 'calls-configuration', render: budgetTable('calls-configuration') },
  { file: 'docs/data-model.md', region: 'calls-discovery', render: budgetTable('calls-discovery') },
  { file: 'docs/data-model.md', region: 'calls-mcp', render: budgetTable('calls-mcp') },
  { file: 'docs/data-model.md', region: 'calls-oauth-token', render: budgetTable('calls-oauth-token') },
  {
    file: 'docs/data-model.md',
    region: 'calls-authorize',
    render: budgetTable('calls-authorize'),
  },
  { file: 'docs/mcp.md', region: 'tool-calls', render: budgetTable('calls-mcp') },
  { file: 'docs/dashboard.md', region: 'dashboard-screens', render: renderDashboardScreens },
];

/** The command that rewrites every region; stale-region messages name it. */
export const DOCS_COMMAND = 'npm run docs';

const markers = (region: string) => [`<!-- ${region}:start -->`, `<!-- ${region}:end -->`] as const;

/** The text between a region's markers, trimmed; null when the markers are missing or out of order. */
export function regionText(doc: string, region: string): string | null {
  const [open, close] = markers(region);
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (start < 0 || end < start) return null;
  return doc.slice(start + open.length, end).trim();
}

/** `doc` with the region's text replaced by `text`. */
export function withRegion(doc: string, region: string, text: string, file = 'the document'): string {
  const [open, close] = markers(region);
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${file} lacks ${open} … ${close}`);
  return `${doc.slice(0, start + open.length)}\n${text}\n${doc.slice(end)}`;
}

/** `doc` with every generated region (of any file's registry entry) removed, markers included. */
export function withoutRegions(doc: string): string {
  return doc.replace(/<!-- ([\w-]+):start -->[\s\S]*?<!-- \1:end -->/g, '');
}

/** A file of the repository, by its path from the root. */
export const readDoc = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = new Map<string, string>();
  for (const { file, region, render } of regions) {
    files.set(file, withRegion(files.get(file) ?? readDoc(file), region, render(), file));
  }
  for (const [file, doc] of files) {
    if (doc !== readDoc(file)) {
      writeFileSync(new URL(`../${file}`, import.meta.url), doc);
      console.log(`wrote ${file}`);
    }
  }
}
