/**
 * Organization plans (docs/api.md, Organizations): how many applications an organization may hold.
 * An operator changes an organization's plan (the `plan` attribute of its item); customers cannot.
 */
const plans = { free: 3, pro: 25, enterprise: null } as const satisfies Record<string, number | null>;

export type Plan = keyof typeof plans;

/** The plan an organization item names; items made before plans existed are on `free`. */
export const planOf = (stored: unknown): Plan =>
  typeof stored === 'string' && Object.hasOwn(plans, stored) ? (stored as Plan) : 'free';

/** The number of applications `plan` allows, or null for no limit. */
export const applicationLimit = (plan: Plan): number | null => plans[plan];

/**
 * Platform organizations one account may create (the one of its first sign-in counts): without it,
 * the per-organization plan would cap nothing, since anyone could make organizations at will.
 */
export const ORGANIZATIONS_PER_ACCOUNT = 10;

/** Active API keys one application may hold (revoked keys do not count). */
export const API_KEYS_PER_APPLICATION = 20;
