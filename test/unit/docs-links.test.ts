import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The README and docs/ stand on their own: no link or pointer leaves the repository. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const markdownIn = (folder: string) =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${folder}/${name}`);
const pages = ['README.md', ...markdownIn('docs')];
/** Every page a link may point into, whose anchors must then exist. */
const linkedPages = [
  ...pages,
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...markdownIn('sdk'),
  ...markdownIn('verifier'),
];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, each space a hyphen. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** Every anchor of a Markdown page: its headings outside code blocks, a repeated one numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

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

describe('anchors', () => {
  it.each(linkedPages)('every #anchor %s links to is a heading of its page', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const broken = [...text.matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^https?:\/\//.test(target))
      .filter((target) => {
        const [path, anchor] = target.split('#') as [string, string];
        const file = path === '' ? join(root, page) : resolve(root, dirname(page), path);
        if (!file.endsWith('.md') || !existsSync(file)) return false;
        return !anchorsOf(readFileSync(file, 'utf8')).has(anchor);
      });
    expect(broken, `${page}: links to headings that do not exist`).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect([
      ...anchorsOf('# A\n## Teardown: what `cdk destroy` keeps\n```\n# not a heading\n```\n## A\n'),
    ]).toEqual(['a', 'teardown-what-cdk-destroy-keeps', 'a-1']);
  });
});
