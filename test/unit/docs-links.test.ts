import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The README and docs/ stand on their own: no link or pointer leaves the repository. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('README and docs/', () => {
  it.each(pages)('%s links only to files of the repository', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
    for (const target of targets) {
      if (/^https?:\/\//.test(target) || target.startsWith('#')) continue;
      const file = resolve(root, dirname(page), target.split('#')[0] ?? '');
      expect(relative(root, file).startsWith('..'), `${page}: ${target}`).toBe(false);
      expect(existsSync(file), `${page}: ${target}`).toBe(true);
    }
  });

  it.each(pages)('%s names no file outside the repository', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared|\/work\/|\b(SPEC|DESIGN|STYLE)\.md\b/);
  });
});
