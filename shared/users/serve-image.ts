import { entityTags, namesEntityTag } from '../conditional-get.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { isImageId } from '../identity/image.ts';
import { type Consistency, readImage, readImageHead } from '../store/images.ts';

export type ImageAnswer =
  | { kind: 'notModified'; etag: string; contentType: string }
  | { kind: 'image'; etag: string; contentType: string; bytes: Buffer };

const etagOf = (sha256: string) => `"${sha256}"`;

const noSuchImage = () => fail('notFound', 'No such image');

/**
 * Eventually consistent first, for half the read units; a miss is read again strongly consistent,
 * since update-user may have answered this URL a moment before every replica holds its image.
 */
async function findImage(deps: Deps, id: string, first: Consistency) {
  const found = await readImage(deps.db, id, first);
  return found || first === 'strong' ? found : readImage(deps.db, id, 'strong');
}

/**
 * GET /images/{id}: a stored image by its id. An id names its owner and its bytes, so while it is
 * stored its answer never changes and its ETag is the hash of the bytes; a removed or replaced
 * photo is deleted and its id answers 404. A revalidation reads only the image's small head, and is
 * 304 only if the image is stored (RFC 9110 §13.2.1: a precondition is evaluated only when the
 * answer would otherwise be 2xx). An id that is not ours, or names nothing stored, is the same 404.
 */
export async function serveImage(
  deps: Deps,
  id: string | undefined,
  ifNoneMatch: string | undefined,
): Promise<ImageAnswer> {
  if (!isImageId(id)) throw noSuchImage();
  let first: Consistency = 'eventual';
  if (entityTags(ifNoneMatch).length > 0) {
    const head = await readImageHead(deps.db, id);
    if (head && namesEntityTag(ifNoneMatch, etagOf(head.sha256))) {
      return { kind: 'notModified', etag: etagOf(head.sha256), contentType: head.contentType };
    }
    // The eventually consistent look found no head: only a strongly consistent read can still find it.
    if (!head) first = 'strong';
  }
  const image = await findImage(deps, id, first);
  if (!image) throw noSuchImage();
  const etag = etagOf(image.head.sha256);
  if (namesEntityTag(ifNoneMatch, etag))
    return { kind: 'notModified', etag, contentType: image.head.contentType };
  return { kind: 'image', etag, contentType: image.head.contentType, bytes: image.bytes };
}
