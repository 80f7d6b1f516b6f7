import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { Db } from './db.ts';
import { decoder } from './decode.ts';
import type { TransactItem } from './errors.ts';
import { queryAll } from './items.ts';
import { keys } from './keys.ts';

/**
 * An uploaded image, stored under an id that names its owner and its bytes (shared/identity/image.ts
 * makes it): one user's image is never another's, and the bytes under an id never change.
 */
export interface StoredImage {
  /** The SHA-256 of the bytes, hex: the ETag. */
  sha256: string;
  /** `<name>.<extension>`: the last segment of its URL. */
  id: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * An item holds at most 400 KB, names included, and a binary attribute counts its bytes: two parts
 * of 300 000 bytes hold the largest image allowed (500 KB, docs/api.md, "Profile images").
 */
const IMAGE_PART_BYTES = 300_000;
/** The parts an image may have: `imageDeletes` deletes them all, so none is ever left behind. */
const MAX_IMAGE_PARTS = 2;

const ImageHead = z.object({
  contentType: z.string(),
  /** The SHA-256 of the bytes, hex. */
  sha256: z.string(),
  size: z.number(),
  parts: z.number(),
});
/** The small item beside an image's parts: enough to answer a revalidation without reading the bytes. */
export type ImageHead = z.infer<typeof ImageHead>;
const headFrom = decoder('image head', ImageHead);
const partFrom = decoder('image part', z.object({ part: z.number(), data: z.instanceof(Uint8Array) }));

/**
 * The Puts storing an image (its head and its parts), for the profile change's transaction.
 * Unconditioned: the id names its owner and its bytes, so an existing item holds the same bytes.
 */
export function imageWrites(table: string, image: StoredImage): TransactItem[] {
  const parts = Math.max(1, Math.ceil(image.bytes.length / IMAGE_PART_BYTES));
  if (parts > MAX_IMAGE_PARTS)
    throw new Error(`an image of ${image.bytes.length} bytes needs ${parts} parts`);
  const head: ImageHead = {
    contentType: image.contentType,
    sha256: image.sha256,
    size: image.bytes.length,
    parts,
  };
  return [
    { Put: { TableName: table, Item: { ...keys.imageHead(image.id), type: 'imageHead', ...head } } },
    ...Array.from({ length: parts }, (_, part) => ({
      Put: {
        TableName: table,
        Item: {
          ...keys.imagePart(image.id, part),
          type: 'imagePart',
          part,
          data: image.bytes.subarray(part * IMAGE_PART_BYTES, (part + 1) * IMAGE_PART_BYTES),
        },
      },
    })),
  ];
}

/** The Deletes of an image's head and of every part it may have, for the profile change's transaction. */
export function imageDeletes(table: string, imageId: string): TransactItem[] {
  const parts = Array.from({ length: MAX_IMAGE_PARTS }, (_, part) => keys.imagePart(imageId, part));
  return [keys.imageHead(imageId), ...parts].map((key) => ({ Delete: { TableName: table, Key: key } }));
}

/** An image's head (one eventually consistent GetItem of a small item: half a read unit), if stored. */
export async function readImageHead(db: Db, imageId: string): Promise<ImageHead | undefined> {
  const { Item: item } = await db.client.send(
    new GetCommand({ TableName: db.table, Key: keys.imageHead(imageId) }),
  );
  return item ? headFrom(item) : undefined;
}

/** `eventual` costs half the read units of `strong` but may not see a write of the last second. */
export type Consistency = 'eventual' | 'strong';

/** An image's head and bytes, or undefined when it is not (or not wholly) stored. */
export async function readImage(
  db: Db,
  imageId: string,
  consistency: Consistency,
): Promise<{ head: ImageHead; bytes: Buffer } | undefined> {
  const items = await queryAll(db, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.image(imageId) },
    ConsistentRead: consistency === 'strong',
  });
  const headItem = items.find((item) => item.sk === keys.imageHead(imageId).sk);
  if (!headItem) return undefined;
  const head = headFrom(headItem);
  const byPart = new Map(
    items
      .filter((item) => item.type === 'imagePart')
      .map((item): [number, Uint8Array] => {
        const { part, data } = partFrom(item);
        return [part, data];
      }),
  );
  const chunks = Array.from({ length: head.parts }, (_, part) => byPart.get(part));
  // A Query is not isolated from a transaction: it may see some of a write's items and not others.
  if (!chunks.every((chunk) => chunk !== undefined)) return undefined;
  return { head, bytes: Buffer.concat(chunks) };
}
