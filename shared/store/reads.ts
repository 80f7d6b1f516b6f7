import { type Item, type Key, readItems } from './batch.ts';
import type { Db } from './db.ts';

/** One item a batch read asks for (`readRecords`), and how its repository decodes it. */
export interface Read<T> {
  readonly key: Key;
  readonly decode: (item: Item) => T;
}

type RecordOf<R> = R extends Read<infer T> ? T : never;

/**
 * `readItems` for the domain: ONE BatchGetItem of the reads the repositories build (an application,
 * an account, a rate limit's log, ...), each answered by name as its decoded record, or absent when
 * there is none. An undefined read is not made.
 */
export async function readRecords<Wanted extends Record<string, Read<unknown> | undefined>>(
  db: Db,
  wanted: Wanted,
): Promise<{ [Name in keyof Wanted]?: RecordOf<Wanted[Name]> }> {
  const found = await readItems(
    db,
    Object.fromEntries(Object.entries(wanted).map(([name, read]) => [name, read?.key])),
  );
  const records: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(wanted)) {
    const item = found[name];
    if (read && item) records[name] = read.decode(item);
  }
  return records as { [Name in keyof Wanted]?: RecordOf<Wanted[Name]> };
}

/** BatchGetItem takes at most 100 keys. */
const READ_BATCH = 100;

/** The records of several reads, 100 to a BatchGetItem, in the order asked; missing ones are left out. */
export async function readMany<T>(db: Db, reads: readonly Read<T>[]): Promise<T[]> {
  const records: T[] = [];
  for (let start = 0; start < reads.length; start += READ_BATCH) {
    const found = await readRecords(db, Object.fromEntries(reads.slice(start, start + READ_BATCH).entries()));
    records.push(...Object.values(found).filter((record): record is T => record !== undefined));
  }
  return records;
}
