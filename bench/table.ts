import type { ColdImport } from './cold-import.ts';

export interface BundleRow {
  readonly id: string;
  /** `GET /status`, or a label for the reference row. */
  readonly route: string;
  /** Undefined when the entry did not bundle (`cold` then holds the error). */
  readonly bytes?: number;
  readonly gzipBytes?: number;
  readonly cold: ColdImport;
}

const kib = (bytes: number | undefined): string => (bytes === undefined ? '–' : (bytes / 1024).toFixed(1));
const ms = (n: number): string => n.toFixed(1);
const int = (n: number | undefined): string => (n === undefined ? '–' : n.toLocaleString('en-US'));

/** A table cell: one line, no pipes, bounded length. */
function cell(text: string, max = 100): string {
  const line = (text.split('\n')[0] ?? '').replaceAll('|', '\\|').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function coldCell(cold: ColdImport): string {
  return cold.ok ? `${ms(cold.median)} (${ms(cold.min)}–${ms(cold.max)})` : `error: ${cell(cold.error)}`;
}

function ratio(cold: ColdImport, reference: ColdImport): string {
  return cold.ok && reference.ok && reference.median > 0
    ? `${(cold.median / reference.median).toFixed(2)}×`
    : '–';
}

/**
 * The bundle table in Markdown: the reference row first, then the routes, then a totals row
 * over the routes only (sizes summed; medians summed, i.e. one cold start of every function).
 */
export function bundleTable(reference: BundleRow, routes: readonly BundleRow[], runs: number): string {
  const header = [
    '| route | method path | size B | size KiB | gzip KiB | cold import median ms (min–max) | p90 ms | × hello |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
  ];
  const line = (r: BundleRow): string =>
    `| ${r.id} | ${r.route} | ${int(r.bytes)} | ${kib(r.bytes)} | ${kib(r.gzipBytes)} | ${coldCell(r.cold)} | ${
      r.cold.ok ? ms(r.cold.p90) : '–'
    } | ${ratio(r.cold, reference.cold)} |`;
  const sum = (f: (r: BundleRow) => number | undefined): number =>
    routes.reduce((acc, r) => acc + (f(r) ?? 0), 0);
  const measured = routes.filter((r) => r.cold.ok);
  const medianSum = sum((r) => (r.cold.ok ? r.cold.median : 0));
  const failed = routes.length - measured.length;
  const totals =
    `| **total (${routes.length} routes)** | | ${int(sum((r) => r.bytes))} | ${kib(sum((r) => r.bytes))} | ` +
    `${kib(sum((r) => r.gzipBytes))} | Σ medians ${ms(medianSum)}${failed ? ` (${failed} failed)` : ''} | | |`;
  const note = `Cold import: median of ${runs} fresh \`node\` processes timing \`await import(bundle)\` only (after one untimed warm-up process); × hello = route median / hello-world median.`;
  return [...header, line(reference), ...routes.map(line), totals, '', note].join('\n');
}

/** Full texts of the import errors, if any, as a Markdown list. */
export function importErrors(rows: readonly BundleRow[]): string {
  const failed = rows.filter((r) => !r.cold.ok);
  if (failed.length === 0) return '';
  return [
    '### Import errors',
    '',
    ...failed.map(
      (r) =>
        `- **${r.id}**:\n\n  \`\`\`\n  ${r.cold.ok ? '' : r.cold.error.replaceAll('\n', '\n  ')}\n  \`\`\``,
    ),
  ].join('\n');
}
