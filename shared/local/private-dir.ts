import { chmodSync, mkdirSync } from 'node:fs';

/**
 * `npm start`'s data folder, created or closed (docs/security.md, "Local mode") so that only its owner can
 * open it: it holds the table, the signing key and the code-hash key. A folder made by an earlier version
 * with the default umask is closed too.
 */
export function privateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
  return path;
}
