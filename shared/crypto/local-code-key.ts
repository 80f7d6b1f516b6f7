import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CODE_KEY_BYTES, type CodeHasher, codeKeyFromHex, keyedCodeHasher } from './code-hasher.ts';

/** A new key in its text form. */
const generateCodeKeyHex = (): string => randomBytes(CODE_KEY_BYTES).toString('hex');

/**
 * The text of a local key file (hex): `file` is created the first time with `bytes` random bytes
 * (mode 0600, its folder 0700), so reading the local table's data file alone reveals nothing it guards.
 */
export function localKeyFile(file: string, bytes: number): string {
  if (!existsSync(file)) {
    const folder = dirname(file);
    // A folder it creates is 0700; an existing one (the user's choice) is left as it is.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${randomBytes(bytes).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8');
}

/** Local mode's code-hash key, in `file` (`localKeyFile`): nobody can search the codes from the table alone. */
export function localCodeHasher(file: string): CodeHasher {
  const key = codeKeyFromHex(localKeyFile(file, CODE_KEY_BYTES));
  return keyedCodeHasher(async () => key);
}

/** A hasher over a key held in memory (tests and benches). */
export const inMemoryCodeHasher = (hex: string = generateCodeKeyHex()): CodeHasher => {
  const key = codeKeyFromHex(hex);
  return keyedCodeHasher(async () => key);
};
