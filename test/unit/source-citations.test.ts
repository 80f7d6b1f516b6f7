import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Comments cite what a reader can open (CONTRIBUTING.md, "Layout and layering"): a docs/ section or an
 * RFC, never the notes the repository was planned from (the interface's section numbers, the design
 * notes) or an issue of the tracker, which a reader of the code cannot open.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /\.(ts|mts|cts|mjs|cjs)$/.test(file) && !file.startsWith('node_modules/'));

// Written with escapes (\x53 is S, \x44 is D), so this file does not cite what it looks for.
const unopenable = new RegExp(
  [
    '\\x53PEC\\s*§',
    '\\x44ESIGN\\s*§',
    '\\b(\\x53PEC|\\x44ESIGN)\\.md\\b',
    '\\b[Ii]ssue \\d+\\b',
    '\\breview \\d+, items? \\d+',
  ].join('|'),
);

/** A file's comments as one text: a citation split over two comment lines is found too. */
const joined = (text: string) => text.replace(/\n\s*(\*|\/\/)\s*/g, ' ');

describe('source files', () => {
  it('are found', () => {
    expect(sources.length).toBeGreaterThan(400);
  });

  it('cite no interface section, design note or issue number', () => {
    const citing = sources.flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const lines = text
        .split('\n')
        .flatMap((line, index) => (unopenable.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
      return lines.length > 0 || !unopenable.test(joined(text))
        ? lines
        : [`${file}: across two comment lines`];
    });
    expect(citing).toEqual([]);
  });
});
