import { http } from '../../shared/http/handler.ts';
import * as routes from '../../shared/route-table/sessions/image.ts';
import { serveImage } from '../../shared/users/serve-image.ts';

// The bytes under an id never change, but a user can remove a photo (docs/api.md, "Profile images"): a cache
// keeps it an hour, then revalidates (a 304 reads one small item), so a removed photo leaves caches within
// the hour. They came from a user: never sniffed as another type, never run as a document.
const imageHeaders = (etag: string) => ({
  etag,
  'cache-control': 'public, max-age=3600',
  'content-security-policy': "default-src 'none'",
  'cross-origin-resource-policy': 'cross-origin',
});

export const handler = http(routes.image, async ({ deps, params, headers }) => {
  const answer = await serveImage(deps, params.id, headers['if-none-match']);
  const raw = {
    base64: answer.kind === 'image' ? answer.bytes.toString('base64') : '',
    contentType: answer.contentType,
  };
  return answer.kind === 'image'
    ? { status: 200, raw, headers: imageHeaders(answer.etag) }
    : { status: 304, raw, headers: imageHeaders(answer.etag) };
});
