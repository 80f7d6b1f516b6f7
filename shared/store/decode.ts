import * as z from 'zod/mini';
import type { Item } from './batch.ts';

/**
 * How the repositories turn an item into the record they return: `schema` checks each field and
 * keeps only the fields it names, so the keys, the index attributes and the item's `type` stay in
 * the store. A malformed item is the table's fault, never a caller's: reading it throws (a 500).
 */
export function decoder<Schema extends z.ZodMiniType>(family: string, schema: Schema) {
  return (item: Item): z.infer<Schema> => {
    const decoded = z.safeParse(schema, item);
    if (!decoded.success) {
      throw new Error(`a stored ${family} item does not hold its fields: ${z.prettifyError(decoded.error)}`);
    }
    return decoded.data;
  };
}

/** The text of `value` after `prefix`, the key prefix it must start with. */
export function afterPrefix(value: unknown, prefix: string): string {
  const text = String(value);
  if (!text.startsWith(prefix)) throw new Error(`a stored key ${text} does not start with ${prefix}`);
  return text.slice(prefix.length);
}
