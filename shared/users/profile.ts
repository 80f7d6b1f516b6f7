import type { Deps } from '../deps.ts';
import { batchGet } from '../store/batch-get.ts';
import type { TransactItem } from '../store/errors.ts';
import { keys } from '../store/keys.ts';
import { type User, userFromItem } from './user.ts';

/**
 * A DynamoDB item holds at most 400 KB, and an image may be 716800 characters (SPEC §8). So the image
 * is stored in parts beside the account item, written in the same transaction as the profile, and
 * read in the same BatchGetItem: three parts of 250 000 characters hold the largest image allowed.
 */
export const IMAGE_PART_CHARS = 250_000;
export const IMAGE_PARTS = 3;

/** The account item and its image parts: what one BatchGetItem reads to have the whole profile. */
export const profileKeys = (scope: string, email: string) => [
  keys.account(scope, email),
  ...Array.from({ length: IMAGE_PARTS }, (_, index) => keys.imagePart(scope, email, index)),
];

/** The User from the items read with `profileKeys` (in that order), or null when there is no account. */
export function profileFrom(items: ReadonlyArray<Record<string, unknown> | undefined>): User | null {
  const [account, ...parts] = items;
  if (!account) return null;
  const count = Number(account.imageParts ?? 0);
  const chunks = parts.slice(0, count).map((part) => part?.data);
  const image = count > 0 && chunks.every((chunk) => typeof chunk === 'string') ? chunks.join('') : null;
  return { ...userFromItem(account), image };
}

/**
 * The whole User of an account item read on its own (sign-in reads the account without its parts,
 * so unauthenticated requests never pull an image): one more BatchGetItem, only if it has an image.
 */
export async function completeProfile(
  deps: Deps,
  scope: string,
  account: Record<string, unknown>,
): Promise<User> {
  const count = Number(account.imageParts ?? 0);
  const email = account.email as string;
  const parts =
    count > 0
      ? await batchGet(
          deps,
          Array.from({ length: count }, (_, index) => keys.imagePart(scope, email, index)),
        )
      : [];
  return profileFrom([account, ...parts]) as User;
}

/** Transaction entries storing `image` in parts ('' removes it), and how many parts it takes. */
export function imageWrites(table: string, scope: string, email: string, image: string) {
  const parts = Math.ceil(image.length / IMAGE_PART_CHARS);
  const items: TransactItem[] = Array.from({ length: IMAGE_PARTS }, (_, index) =>
    index < parts
      ? {
          Put: {
            TableName: table,
            Item: {
              ...keys.imagePart(scope, email, index),
              type: 'imagePart',
              data: image.slice(index * IMAGE_PART_CHARS, (index + 1) * IMAGE_PART_CHARS),
            },
          },
        }
      : { Delete: { TableName: table, Key: keys.imagePart(scope, email, index) } },
  );
  return { parts, items };
}
