import { accessPorts } from '../shared/route-access.ts';
import type { AccessProfile } from '../shared/routes.ts';

/**
 * Every access property, in key order: those of shared/route-access.ts `accessPorts`, a record
 * over every property that opens a port, so a new kind of access does not compile until it is
 * listed there, and routes that differ in it never share a role; then `role`, a role of its own. A
 * route's item families are not part of it: a shared role gets the union of its routes' families
 * (lib/access-roles.ts).
 */
const keyOrder = [...Object.keys(accessPorts), 'role'] as Array<keyof AccessProfile>;

/**
 * The canonical form of a route's access: `{ mail: true, table: 'readwrite' }` ->
 * `table=readwrite,mail`, `{}` -> `` (none). Equal access gives an equal key whatever the
 * property order, and `sign: false` is the same access as no `sign`, as it is for the grants.
 */
export function accessProfileKey(access: AccessProfile): string {
  return keyOrder
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
