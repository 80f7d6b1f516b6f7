import type { authorize as decide } from '../tenancy/authorize.ts';

/**
 * The permission check of a bundle whose route is not a management route (auth other than
 * `manage`): lib/bundling.ts aliases `#authorize` here, so the matrix and the target reads stay out
 * of it. A route that names a permission in such a bundle means the bundle and the table disagree.
 */
export const authorize: typeof decide = async (_deps, _caller, permission) => {
  throw new Error(`This bundle checks no permission, but its route asks for ${permission.action}`);
};
