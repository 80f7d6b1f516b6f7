import { ConditionalGet, ImagePath } from '../../contracts/images.ts';
import type { RouteSpec } from '../../route-spec.ts';

/** Uploaded profile images, by owner and bytes, deleted with the profile change: public, apart from the session path. */
export const image = {
  method: 'GET',
  path: '/images/{id}',
  entry: 'functions/images/get-image.ts',
  description:
    'Fetch an uploaded profile image. Public, by the id in `User.image`; 304 when `If-None-Match` ' +
    'names its ETag; 404 once removed or replaced.',
  errorStyle: 'app',
  auth: 'none',
  access: { table: 'read', items: ['image'] },
  contract: {
    params: ImagePath,
    headers: ConditionalGet,
    responses: { 200: { raw: 'image/*' }, 304: { raw: 'image/*' } },
    errors: ['notFound'],
  },
} as const satisfies RouteSpec;
