import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CODE_KEY_BYTES, type CodeHasher, codeKeyFromHex, keyedCodeHasher } from './code-hasher.ts';

/** A new key in its text form. */
const generateCodeKeyHex = (): string => randomBytes(CODE_KEY_BYTES).toString('hex');

/**
 * Local mode's code-hash key: `file` holds it as hex, created the first time (mode 0600, its folder
 * 0700), so reading the local table's data file alone does not let anyone search the codes.
 */
export function localCodeHasher(file: string): CodeHasher {
  if (!existsSync(file)) {
    const folder = dirname(file);
    // A folder it creates is 0700; an existing one (the user's choice) is left as it is.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${generateCodeKeyHex()}\n`, { mode: 0o600, flag: 'wx' });
  }
  const key = codeKeyFromHex(readFileSync(file, 'utf8'));
  return keyedCodeHasher(async () => key);
}

/** A hasher over a key held in memory (tests and benches). */
export const inMemoryCodeHasher = (hex: string = generateCodeKeyHex()): CodeHasher => {
  const key = codeKeyFromHex(hex);
  return keyedCodeHasher(async () => key);
};
