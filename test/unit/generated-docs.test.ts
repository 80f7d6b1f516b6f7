import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_COMMAND, readDoc, regions, regionText } from '../../scripts/docs.ts';
import { routeList } from '../../shared/routes.ts';
import { permissions } from '../../shared/tenancy/permissions.ts';

/** The pages a reader opens: the README, the contributor guide and every page of docs/. */
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(new URL('../../docs', import.meta.url))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe(`generated docs (${DOCS_COMMAND})`, () => {
  it.each(regions)('$file: region "$region" is what the code holds', ({ file, region, render }) => {
    const documented = regionText(readDoc(file), region);
    expect(documented, `${file}: region "${region}" is missing its markers`).not.toBeNull();
    expect(documented, `${file}: region "${region}" is stale; run ${DOCS_COMMAND}`).toBe(render());
  });

  it('knows every region the pages mark', () => {
    const known = new Set(regions.map(({ file, region }) => `${file}#${region}`));
    const marked = pages.flatMap((page) =>
      [...readDoc(page).matchAll(/<!-- ([\w-]+):start -->/g)].map((match) => `${page}#${match[1]}`),
    );
    expect(
      marked.filter((key) => !known.has(key)),
      'a marked region without an entry in scripts/docs.ts',
    ).toEqual([]);
  });
});

describe('the permission matrix', () => {
  it('names only actions some route uses, and every management route names one', () => {
    const used = new Set(routeList.flatMap((route) => (route.permission ? [route.permission.action] : [])));
    // members.change is decided inside members.leave's route for others than oneself, and
    // socialSignIn.write inside the configuration writes' routes for a change of social sign-in.
    expect([...used, 'members.change', 'socialSignIn.write'].sort()).toEqual(
      expect.arrayContaining(Object.keys(permissions).sort()),
    );
    for (const route of routeList)
      expect(route.auth === 'manage', route.id).toBe(route.permission !== undefined);
  });
});

describe('docs/api.md', () => {
  it('documents every route of the table, by method and path', () => {
    const doc = readDoc('docs/api.md');
    const missing = routeList
      .filter((route) => route.method !== 'OPTIONS')
      .filter(
        (route) => !doc.includes(`\`${route.path}\``) && !doc.includes(`\`${route.method} ${route.path}\``),
      )
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });
});
