/**
 * What each screen of the owner dashboard calls (docs/dashboard.md, "Screens"), read from its
 * sources: the screen list (dashboard/src/screens.ts) and, for each screen module, the route ids its
 * `call('<id>', …)` names, in that module and the console modules it imports. The paths come from the
 * route table, as the console's own do (dashboard/build.ts). A region of scripts/docs.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { routes } from '../shared/routes.ts';
import { code, table } from './docs-markdown.ts';

/** The shell's modules: the client, the session check and the impersonation banner, on every screen. */
const SHARED = new Set([
  'dashboard/src/api.ts',
  'dashboard/src/session.ts',
  'dashboard/src/impersonation.tsx',
]);
/** The frames a screen sits in, by the name a screen uses, and what each loads itself. */
const FRAMES = 'dashboard/src/frames.tsx';
const frameCalls: Record<string, RouteId[]> = {
  OrganizationFrame: ['getOrganization'],
  ApplicationFrame: ['getApplication', 'getOrganization'],
};

const source = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** The console modules `file` imports, transitively (relative imports inside dashboard/src only). */
function modulesOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of source(file).matchAll(/from '(\.\.?\/[^']+\.tsx?)'/g)) {
    const imported = normalize(join(dirname(file), match[1] as string));
    // The client and the session check are every screen's: the header's row shows their calls.
    if (imported.startsWith('dashboard/src/') && !SHARED.has(imported) && imported !== FRAMES) {
      modulesOf(imported, seen);
    }
  }
  return seen;
}

type RouteId = keyof typeof routes;

/** The routes `files` call, in first-seen order. */
function callsIn(files: Iterable<string>): RouteId[] {
  const ids = new Set<RouteId>();
  for (const module of files) {
    for (const match of source(module).matchAll(/\bcall\(\s*'(\w+)'/g)) {
      const id = match[1] as string;
      if (!(id in routes)) throw new Error(`${module} calls ${id}, which is no route of the route table`);
      ids.add(id as RouteId);
    }
  }
  return [...ids];
}

/**
 * The routes `file` and the console modules it imports call, with its frame's own loads. A module that
 * serves screens of both an organization and an application (the audit trail) calls, for `pattern`,
 * only the routes of the same kind of target.
 */
function callsOf(file: string, pattern?: string): RouteId[] {
  const modules = modulesOf(file);
  const target = pattern?.split('/')[2];
  const frames = Object.entries(frameCalls)
    .filter(([frame]) => [...modules].some((module) => new RegExp(`<${frame}\\b`).test(source(module))))
    .filter(([frame]) => target === undefined || frame.toLowerCase().startsWith(target.slice(0, -1)))
    .flatMap(([, calls]) => calls);
  const calls = callsIn(modules).filter((id) => {
    const first = routes[id].path.split('/')[1];
    return (
      target === undefined || !['applications', 'organizations'].includes(first ?? '') || first === target
    );
  });
  return [...new Set([...calls, ...frames])];
}

/** Every screen: its URL, and the API calls it makes. */
function dashboardScreens(): { pattern: string; module: string; calls: RouteId[] }[] {
  const list = source('dashboard/src/screens.ts');
  const screens = [...list.matchAll(/pattern: '([^']+)',\s*load: \(\) => import\('([^']+)'\)/g)].map(
    (match) => {
      const module = normalize(join('dashboard/src', match[2] as string));
      const pattern = match[1] as string;
      return { pattern, module, calls: callsOf(module, pattern) };
    },
  );
  const signIn = 'dashboard/src/screens/sign-in.tsx';
  return [
    {
      pattern: 'every screen (the header and the impersonation banner)',
      module: 'dashboard/src/app.tsx',
      calls: callsIn(['dashboard/src/app.tsx', ...SHARED]),
    },
    { pattern: '/dashboard/sign-in', module: signIn, calls: callsOf(signIn) },
    ...screens,
  ];
}

export function renderDashboardScreens(): string {
  return table(
    ['Screen', 'Module', 'Calls'],
    dashboardScreens().map((screen) => [
      code(screen.pattern),
      code(screen.module.replace('dashboard/src/', '')),
      [...new Set(screen.calls)].map((id) => code(`${routes[id].method} ${routes[id].path}`)).join(', ') ||
        '—',
    ]),
  );
}
