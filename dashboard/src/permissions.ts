/**
 * What the signed-in account may do, from the permission matrix itself (docs/api.md "Permission
 * matrix", shared/tenancy/permissions.ts): a control whose action the matrix refuses is not shown.
 * The server still decides every call.
 */
import { type Action, mayAct, mayChangeMember, type Role } from '../../shared/tenancy/permissions.ts';

export type { Action, Role };
export { mayChangeMember };

/** Whether a member of role `role` (undefined: not known yet) may do `action`. */
export const can = (role: Role | undefined, action: Action): boolean =>
  role !== undefined && mayAct(action, role);
