import type { RouteAccess } from '../shared/routes.ts';

/**
 * Every access property, in key order. A record over every key of `RouteAccess`: a new kind of
 * access does not compile until it is listed here, so routes that differ in it never share a role.
 */
const keyOrder: Readonly<Record<keyof RouteAccess, true>> = {
  table: true,
  sign: true,
  publicKeys: true,
  mail: true,
  codeKey: true,
  seal: true,
};

/**
 * The canonical form of a route's access: `{ mail: true, table: 'readwrite' }` ->
 * `table=readwrite,mail`, `{}` -> `` (none). Equal access gives an equal key whatever the
 * property order, and `sign: false` is the same access as no `sign`, as it is for the grants.
 */
export function accessProfileKey(access: RouteAccess): string {
  return (Object.keys(keyOrder) as Array<keyof RouteAccess>)
    .flatMap((name) => {
      const value = access[name];
      if (value === undefined || value === false) return [];
      return value === true ? [name] : [`${name}=${String(value)}`];
    })
    .join(',');
}

/** `table=readwrite,mail` -> `TableReadwriteMail`, `` -> `NoAccess`: a construct id that follows the profile. */
export function accessProfileConstructId(key: string): string {
  if (key === '') return 'NoAccess';
  return key
    .split(/[=,]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
