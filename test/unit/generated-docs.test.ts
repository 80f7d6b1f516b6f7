import { readdirSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { contextKeys } from '../../lib/context-keys.ts';
import { readInputs } from '../../lib/inputs.ts';
import { DOCS_COMMAND, readDoc, regions, regionText, withoutRegions } from '../../scripts/docs.ts';
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
  it.each(regions.map(({ file, region, render }) => [file, region, render] as const))(
    '%s: region "%s" is what the code holds',
    (file, region, render) => {
      const documented = regionText(readDoc(file), region);
      expect(documented, `${file}: region "${region}" is missing its markers`).not.toBeNull();
      expect(documented, `${file}: region "${region}" is stale; run ${DOCS_COMMAND}`).toBe(render());
    },
  );

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

/**
 * A count of the service's parts written by hand: the next route makes it wrong. A bound on what one
 * request touches ("up to 5 profiles") and CloudFormation's quota ("500 resources per stack") are not
 * counts of the service.
 */
const HAND_COUNT =
  /(?<!\b(?:up to|at most) )\b\d[\d,]*(?:[ -](?:[A-Za-z]+ ){0,2}|-)(?:routes?|Lambda functions|functions|access profiles|profiles|roles|IAM roles|resources)\b(?! per stack)/g;

describe('counts in the docs', () => {
  it.each(pages)(
    '%s states no count of routes, functions, profiles or resources outside a generated region',
    (page) => {
      const counts = [...withoutRegions(readDoc(page)).matchAll(HAND_COUNT)].map((match) => match[0]);
      expect(
        counts,
        `${page} counts by hand (${counts.join('; ')}): link to docs/deploy.md#what-the-stack-creates, or render the count in a region of scripts/docs.ts (${DOCS_COMMAND})`,
      ).toEqual([]);
    },
  );

  it('finds a count written by hand, and none inside a generated region', () => {
    const page =
      'The stack has 89 routes in 13 access profiles.\n<!-- counts:start -->\n- 394 resources\n<!-- counts:end -->';
    expect([...withoutRegions(page).matchAll(HAND_COUNT)].map((match) => match[0])).toEqual([
      '89 routes',
      '13 access profiles',
    ]);
    expect('reads up to 5 profiles, of 500 resources per stack'.match(HAND_COUNT)).toBeNull();
    expect(
      '398 CloudFormation resources, 90 API routes, 13 IAM roles, a 90-route stack'.match(HAND_COUNT),
    ).toEqual(['398 CloudFormation resources', '90 API routes', '13 IAM roles', '90-route']);
  });
});

/** The README is read in three minutes: what it is, the two commands, a diagram, deploy, links. */
const README_MAX_BYTES = 12 * 1024;

describe('README.md', () => {
  const readme = readDoc('README.md');

  it(`stays within ${README_MAX_BYTES / 1024} KB`, () => {
    expect(
      Buffer.byteLength(readme),
      'README.md is over its budget: move detail to docs/ or CONTRIBUTING.md',
    ).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('gives the two commands exactly as CI runs them', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
  });

  it('draws the request path in a Mermaid diagram: API Gateway, a Lambda per route, the chain, the domain, the store, KMS and SES', () => {
    const diagram = readme.match(/^```mermaid\n([\s\S]*?)^```$/m)?.[1] ?? '';
    for (const part of ['API Gateway', 'Lambda', 'middy', 'shared/', 'DynamoDB', 'KMS', 'SES'])
      expect(diagram, part).toContain(part);
  });
});

describe('docs/deploy.md context keys', () => {
  it('states each default as readInputs applies it when the key is left out', () => {
    const inputs = readInputs(new App({ context: { senderEmail: 'no-reply@example.com' } }).node);
    const defaults = Object.entries(contextKeys).flatMap(
      ([key, entry]): Array<[string, unknown]> => ('default' in entry ? [[key, entry.default]] : []),
    );
    expect(defaults.length).toBeGreaterThan(0);
    for (const [key, value] of defaults) expect(inputs[key as keyof typeof inputs], key).toBe(value);
  });
});

describe('the permission matrix', () => {
  it('names only actions some route uses', () => {
    const used = new Set(routeList.flatMap((route) => (route.permission ? [route.permission.action] : [])));
    // members.change is decided inside members.leave's route for others than oneself, and
    // socialSignIn.write inside the configuration writes' routes for a change of social sign-in.
    expect([...used, 'members.change', 'socialSignIn.write'].sort()).toEqual(
      expect.arrayContaining(Object.keys(permissions).sort()),
    );
  });
});
