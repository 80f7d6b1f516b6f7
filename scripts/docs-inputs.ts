/** The stack's context keys (lib/context-keys.ts) as docs/deploy.md shows them. A region of scripts/docs.ts. */
import { contextKeys } from '../lib/context-keys.ts';
import { code, table } from './docs-markdown.ts';

export function renderContextKeys(): string {
  return table(
    ['Context key', 'Without it', 'Meaning'],
    Object.entries(contextKeys).map(([key, entry]) => [
      code(key),
      'default' in entry ? code(String(entry.default)) : entry.absent,
      entry.meaning,
    ]),
  );
}
