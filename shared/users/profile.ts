import type { Deps } from '../deps.ts';
import { accountImageParts } from '../store/accounts.ts';
import { type Item, readItems } from '../store/batch.ts';
import { keys } from '../store/keys.ts';
import { type User, userFromItem } from './user.ts';

/** The account item and its image parts, by name: what one BatchGetItem reads to have the whole profile. */
export const profileKeys = (scope: string, email: string) => ({
  account: keys.account(scope, email),
  ...accountImageParts(scope, email),
});

type ProfileItems = { [Name in keyof ReturnType<typeof profileKeys>]?: Item };

/** The User from the items read with `profileKeys`, or null when there is no account. */
export function profileFrom(items: ProfileItems): User | null {
  const { account, ...parts } = items;
  if (!account) return null;
  const count = Number(account.imageParts ?? 0);
  const chunks = [parts.image0, parts.image1, parts.image2].slice(0, count).map((part) => part?.data);
  const image = count > 0 && chunks.every((chunk) => typeof chunk === 'string') ? chunks.join('') : null;
  return { ...userFromItem(account), image };
}

/**
 * The whole User of an account item read on its own (sign-in reads the account without its parts,
 * so unauthenticated requests never pull an image): one more BatchGetItem, only if it has an image.
 */
export async function completeProfile(deps: Deps, scope: string, account: Item): Promise<User> {
  const count = Number(account.imageParts ?? 0);
  if (count === 0) return profileFrom({ account }) as User;
  const current = Object.entries(accountImageParts(scope, account.email as string)).slice(0, count);
  const parts: ProfileItems = await readItems(deps.db, Object.fromEntries(current));
  return profileFrom({ ...parts, account }) as User;
}
