import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { readImage } from '../store/images.ts';
import { parseImageId } from './image.ts';

export type ImageAnswer =
  | { kind: 'notModified'; etag: string; contentType: string }
  | { kind: 'image'; etag: string; contentType: string; bytes: Buffer };

/** RFC 9110 §13.1.2: the entity tags of If-None-Match, compared weakly (a `W/` prefix is dropped). */
const entityTags = (header: string | undefined): string[] =>
  (header ?? '')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter((tag) => tag.length > 0);

/**
 * GET /images/{id}: a stored image by its id. An id names its bytes for ever, so the answer never
 * changes and its ETag is the hash: a client presenting it is answered 304 without a read (stored
 * images are never deleted). An id that is not ours, or names nothing stored, is the same 404.
 */
export async function serveImage(
  deps: Deps,
  id: string | undefined,
  ifNoneMatch: string | undefined,
): Promise<ImageAnswer> {
  const named = parseImageId(id);
  if (!named) throw fail('notFound', 'No such image');
  const etag = `"${named.sha256}"`;
  const tags = entityTags(ifNoneMatch);
  if (tags.includes(etag)) return { kind: 'notModified', etag, contentType: named.contentType };
  const image = await readImage(deps.db, named.sha256);
  if (!image || image.contentType !== named.contentType) throw fail('notFound', 'No such image');
  if (tags.includes('*')) return { kind: 'notModified', etag, contentType: named.contentType };
  return { kind: 'image', etag, contentType: image.contentType, bytes: image.bytes };
}
