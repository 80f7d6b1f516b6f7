import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { differences, type Finding, keptFindings } from '../../scripts/lint-openapi.ts';

/**
 * docs/openapi.md, "How it is linted": `npm run lint:openapi` passes only when the linters' warnings
 * are exactly the findings the page keeps, each with its reason. The linters themselves run in
 * `npm test`'s checks; this is the comparison, and the kept list as the page states it.
 */
const page = readFileSync(new URL('../../docs/openapi.md', import.meta.url), 'utf8');

const warning = (linter: Finding['linter'], rule: string, where: string): Finding => ({
  linter,
  rule,
  where,
  error: false,
});

describe('npm run lint:openapi', () => {
  it('reads the kept findings of docs/openapi.md, each with its reason', () => {
    // Act
    const kept = keptFindings(page);
    const rows = page
      .split(/^### Findings kept$/m)[1]
      ?.split('\n')
      .filter((line) => line.startsWith('| `'));

    // Assess
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBe(rows?.length);
    for (const finding of kept) {
      expect(['redocly', 'spectral']).toContain(finding.linter);
      expect(finding.rule).toMatch(/^[a-z0-9.-]+$/);
      expect(finding.where).toMatch(/^(info|(GET|POST|PUT|PATCH|DELETE|OPTIONS) \/\S*)$/);
    }
    for (const row of rows ?? []) expect(row.split('|')[4]?.trim().length, row).toBeGreaterThan(20);
  });

  it('passes on exactly the kept warnings, and names each difference with what to do', () => {
    // Prepare
    const kept = [
      { linter: 'spectral', rule: 'info-contact', where: 'info' },
      { linter: 'spectral', rule: 'operation-success-response', where: 'GET /gone' },
    ] as const;

    // Act
    const same = differences(
      [
        warning('spectral', 'info-contact', 'info'),
        warning('spectral', 'operation-success-response', 'GET /gone'),
      ],
      [...kept],
    );
    const changed = differences(
      [
        warning('spectral', 'info-contact', 'info'),
        warning('redocly', 'operation-summary', 'GET /new'),
        { ...warning('redocly', 'path-parameters-defined', 'OPTIONS /{proxy+}'), error: true },
      ],
      [...kept, { linter: 'redocly', rule: 'path-parameters-defined', where: 'OPTIONS /{proxy+}' }],
    );

    // Assess
    expect(same).toEqual([]);
    expect(changed).toEqual([
      'redocly path-parameters-defined OPTIONS /{proxy+}: an error, never kept: fix the document',
      'redocly operation-summary GET /new: new: fix the document, or keep it in docs/openapi.md ("Findings kept") with its reason',
      'spectral operation-success-response GET /gone: kept in docs/openapi.md but no longer found: drop its row',
    ]);
  });
});
