/**
 * The route table (shared/routes.ts) as the docs show it: every route with its auth mode and access
 * profile, the auth modes (shared/auth-modes.ts), each route's errors (shared/errors.ts), the access
 * profiles and their routes. Regions of scripts/docs.ts.
 */
import { accessProfileKey } from '../lib/access-profile.ts';
import { authModes } from '../shared/auth-modes.ts';
import { AppError } from '../shared/errors.ts';
import { oauthErrorOf } from '../shared/http/respond.ts';
import { type AuthMode, routeList } from '../shared/routes.ts';
import { code, table } from './docs-markdown.ts';

type Route = (typeof routeList)[number];

const routeName = (route: Route) => code(`${route.method} ${route.path}`);

/** A profile's key as the docs name it: `table=read,publicKeys`, or `none` for no AWS access. */
const profileOf = (route: Route) => code(accessProfileKey(route.access) || 'none');

/** Every route, in table order: method, path, auth mode and access profile. */
export function renderRouteTable(): string {
  return table(
    ['Method', 'Path', 'Auth', 'Access profile'],
    routeList.map((route) => [
      route.method,
      [route.path, ...(route.alsoAt ?? [])].map(code).join(', '),
      code(route.auth),
      profileOf(route),
    ]),
  );
}

/** Each auth mode, what the chain reads and refuses, and how many routes use it. */
export function renderAuthModes(): string {
  return (Object.entries(authModes) as Array<[AuthMode, string]>)
    .map(([mode, meaning]) => {
      const count = routeList.filter((route) => route.auth === mode).length;
      return `- ${code(mode)} (${count} ${count === 1 ? 'route' : 'routes'}): ${meaning}`;
    })
    .join('\n');
}

/**
 * Every error a route may answer besides `internal` (500): its status and code as the wire carries
 * it (an OAuth route's RFC 6749 `error`, every other route's envelope code), with the catalogue's
 * names for it (two names may share a code, as `invalidRequest` and `wrongCode` do).
 */
export function renderRouteErrors(): string {
  return table(
    ['Route', 'Errors besides 500 `INTERNAL_ERROR`'],
    routeList.map((route) => {
      const byAnswer = new Map<string, string[]>();
      for (const error of route.contract.errors.map((name) => new AppError(name, ''))) {
        const wire = route.errorStyle === 'oauth' ? oauthErrorOf(error) : error.code;
        const answer = `${error.status} ${code(wire)}`;
        byAnswer.set(answer, [...(byAnswer.get(answer) ?? []), error.kind]);
      }
      const answers = [...byAnswer]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([answer, names]) => `${answer} (${names.join(', ')})`);
      return [routeName(route), answers.join('; ') || 'none'];
    }),
  );
}

/** The access profiles, each one IAM role shared by the routes that declare the same access. */
export function renderAccessProfiles(): string {
  const byProfile = new Map<string, Route[]>();
  for (const route of routeList) {
    const key = accessProfileKey(route.access);
    byProfile.set(key, [...(byProfile.get(key) ?? []), route]);
  }
  return table(
    ['Access profile', 'Routes', 'Which'],
    [...byProfile]
      .sort(([, a], [, b]) => b.length - a.length)
      .map(([key, routes]) => [code(key || 'none'), String(routes.length), routes.map(routeName).join(', ')]),
  );
}
