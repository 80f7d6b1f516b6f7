import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredImage } from '../users/image.ts';
import type { Item } from './batch.ts';
import type { Db } from './db.ts';
import type { TransactItem } from './errors.ts';
import { keys } from './keys.ts';

/**
 * An item holds at most 400 KB, names included, and a binary attribute counts its bytes: two parts
 * of 300 000 bytes hold the largest image allowed (500 KB, SPEC §8).
 */
const IMAGE_PART_BYTES = 300_000;

/**
 * The Puts storing an image's parts, for the profile change's transaction. Unconditioned: the key is
 * the hash of the bytes, so an image already stored (by anyone) is rewritten with the same bytes.
 */
export function imageWrites(table: string, image: StoredImage): TransactItem[] {
  const parts = Math.max(1, Math.ceil(image.bytes.length / IMAGE_PART_BYTES));
  return Array.from({ length: parts }, (_, part) => ({
    Put: {
      TableName: table,
      Item: {
        ...keys.imagePart(image.sha256, part),
        type: 'imagePart',
        contentType: image.contentType,
        part,
        parts,
        data: image.bytes.subarray(part * IMAGE_PART_BYTES, (part + 1) * IMAGE_PART_BYTES),
      },
    },
  }));
}

/** An image's bytes and type, or undefined when none (or not all of its parts) is stored. */
export async function readImage(
  db: Db,
  sha256: string,
): Promise<{ contentType: string; bytes: Buffer } | undefined> {
  const items: Item[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    // Strongly consistent: a URL answered by update-user must serve its image at once.
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.image(sha256) },
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  const first = items[0];
  if (!first) return undefined;
  const byPart = new Map(items.map((item) => [Number(item.part), item.data as Uint8Array]));
  const chunks = Array.from({ length: Number(first.parts) }, (_, part) => byPart.get(part));
  if (!chunks.every((chunk) => chunk !== undefined)) return undefined;
  return { contentType: String(first.contentType), bytes: Buffer.concat(chunks) };
}
