/** The public User of SPEC §2. */
export interface User {
  id: string;
  email: string;
  name: string | null;
  image: string | null;
  emailVerified: boolean;
  createdAt: string;
}

/** Profile attributes stored on both the user item and the account (email) item. */
export const PROFILE_FIELDS = ['id', 'email', 'name', 'image', 'emailVerified', 'createdAt'] as const;

export function userFromItem(item: Record<string, unknown>): User {
  return {
    id: item.id as string,
    email: item.email as string,
    name: (item.name as string | undefined) ?? null,
    image: (item.image as string | undefined) ?? null,
    emailVerified: item.emailVerified === true,
    createdAt: item.createdAt as string,
  };
}

/** Email identity: trimmed and lower-cased (DESIGN §5: one account per normalised email per scope). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
