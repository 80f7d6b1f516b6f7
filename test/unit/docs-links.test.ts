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

// Written with escapes (\x53 is S, \x44 is D, \x38 is 8), so this file does not cite what it looks for.
const unopenable = new RegExp(
  ['\\b(\\x53PEC|\\x44ESIGN)\\s*(§|["“]|\\d+\\.\\d)', '\\b[Ii]ssue \\d+\\b', '\\.\\./shared/'].join('|'),
);

/**
 * Where a page cites what its reader cannot open (the notes the repository was planned from, an
 * issue of the tracker, a file of ../shared/), as `page:line: text`; a citation split over two
 * lines is found too.
 */
function unopenableCitations(page: string, text: string): string[] {
  const lines = text
    .split('\n')
    .flatMap((line, index) => (unopenable.test(line) ? [`${page}:${index + 1}: ${line.trim()}`] : []));
  return lines.length > 0 || !unopenable.test(text.replace(/\s*\n\s*/g, ' '))
    ? lines
    : [`${page}: across two lines`];
}

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

describe('citations', () => {
  it.each(linkedPages)('%s cites only what a reader can open', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    expect(unopenableCitations(page, text), 'cite a docs/ section or an RFC instead').toEqual([]);
  });

  it('finds each citation of a note, an issue or ../shared/ and names its line', () => {
    const text = [
      'A rule (\x53PEC §3.1) and its choice',
      '(\x44ESIGN §5 trade-off), \x53PEC "Application organizations", \x53PEC 1.7',
      'issue \x38 item 9, [style](../shared/STYLE.md)',
      'MCP_IN\x53PECTOR_SECRET_STORE, a later issue, RFC 6749 §4.1.2.1',
    ].join('\n');
    expect(unopenableCitations('a.md', text)).toEqual([
      'a.md:1: A rule (\x53PEC §3.1) and its choice',
      'a.md:2: (\x44ESIGN §5 trade-off), \x53PEC "Application organizations", \x53PEC 1.7',
      'a.md:3: issue \x38 item 9, [style](../shared/STYLE.md)',
    ]);
    expect(unopenableCitations('a.md', 'see \x53PEC\n§3.1')).toEqual(['a.md: across two lines']);
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
