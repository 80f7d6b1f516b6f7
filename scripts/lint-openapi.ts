/**
 * `npm run lint:openapi`: docs/openapi.json through two independent linters, Redocly CLI
 * (redocly.yaml, `recommended`) and Spectral (.spectral.yaml, `spectral:oas`), both offline. It
 * passes only when neither finds an error and their warnings are exactly the findings docs/openapi.md
 * keeps ("How it is linted"), each with its reason: a new finding fails, and so does a kept one
 * that is gone, so the list in the docs stays the truth.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOCUMENT = 'docs/openapi.json';
const KEPT_IN = 'docs/openapi.md';

export interface Finding {
  readonly linter: 'redocly' | 'spectral';
  readonly rule: string;
  readonly error: boolean;
  /** The operation (`GET /path`) or, outside one, the document's JSON path (`info`). */
  readonly where: string;
}

/** A JSON path of the document as a reader names it: `GET /path` inside an operation. */
function whereOf(path: readonly string[]): string {
  const [top, route, method] = path;
  return top === 'paths' && route !== undefined && method !== undefined
    ? `${method.toUpperCase()} ${route}`
    : path.join('.');
}

function run(bin: string, args: readonly string[]): string {
  const result = spawnSync(`${root}node_modules/.bin/${bin}`, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // No telemetry, no update check: the lint reads nothing but the repository.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) throw result.error;
  if (!result.stdout.trim().startsWith('{') && !result.stdout.trim().startsWith('['))
    throw new Error(`${bin} gave no JSON report (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

function redocly(): Finding[] {
  const report = JSON.parse(
    run('redocly', ['lint', DOCUMENT, '--config', 'redocly.yaml', '--format=json']),
  ) as {
    problems: Array<{ ruleId: string; severity: string; location: Array<{ pointer: string }> }>;
  };
  return report.problems.map((problem) => ({
    linter: 'redocly',
    rule: problem.ruleId,
    error: problem.severity === 'error',
    where: whereOf(
      (problem.location[0]?.pointer ?? '#')
        .replace(/^#\/?/, '')
        .split('/')
        .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')),
    ),
  }));
}

function spectral(): Finding[] {
  const report = JSON.parse(
    run('spectral', ['lint', DOCUMENT, '--ruleset', '.spectral.yaml', '--format=json', '--quiet']),
  ) as Array<{ code: string; severity: number; path: string[] }>;
  // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
  return report.map((problem) => ({
    linter: 'spectral',
    rule: problem.code,
    error: problem.severity === 0,
    where: whereOf(problem.path),
  }));
}

const keyOf = (finding: Pick<Finding, 'linter' | 'rule' | 'where'>) =>
  `${finding.linter} ${finding.rule} ${finding.where}`;

/** The findings docs/openapi.md keeps: the rows of the table under "Findings kept". */
export function keptFindings(markdown: string): Array<Pick<Finding, 'linter' | 'rule' | 'where'>> {
  const section = markdown.split(/^### Findings kept$/m)[1]?.split(/^#/m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [linter, rule, where] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim().replace(/^`|`$/g, ''));
      return { linter: linter as Finding['linter'], rule: rule ?? '', where: where ?? '' };
    });
}

/** What differs from the kept list, each as what to do; empty when the lint passes. */
export function differences(findings: readonly Finding[], kept: ReturnType<typeof keptFindings>): string[] {
  const keptKeys = new Set(kept.map(keyOf));
  const foundKeys = new Set(findings.map(keyOf));
  return [
    ...findings
      .filter((finding) => finding.error)
      .map((finding) => `${keyOf(finding)}: an error, never kept: fix the document`),
    ...findings
      .filter((finding) => !finding.error && !keptKeys.has(keyOf(finding)))
      .map(
        (finding) =>
          `${keyOf(finding)}: new: fix the document, or keep it in ${KEPT_IN} ("Findings kept") with its reason`,
      ),
    ...kept
      .filter((finding) => !foundKeys.has(keyOf(finding)))
      .map((finding) => `${keyOf(finding)}: kept in ${KEPT_IN} but no longer found: drop its row`),
  ];
}

function countsByRule(findings: readonly Finding[]): string {
  const counts = new Map<string, number>();
  for (const finding of findings) {
    const key = `${finding.linter} ${finding.error ? 'error' : 'warning'} ${finding.rule}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `  ${count} ${key}`).join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const findings = [...redocly(), ...spectral()];
  const problems = differences(findings, keptFindings(readFileSync(`${root}${KEPT_IN}`, 'utf8')));
  const errors = findings.filter((finding) => finding.error).length;
  console.log(
    `${DOCUMENT}: ${errors} errors, ${findings.length - errors} warnings (Redocly, Spectral)` +
      (findings.length > 0 ? `\n${countsByRule(findings)}` : ''),
  );
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`Every warning is one ${KEPT_IN} keeps ("Findings kept").`);
}
