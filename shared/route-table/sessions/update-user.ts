import { UserResult } from '../../contracts/sessions.ts';
import { bodyErrors, credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { UpdateUserBody } from '../../users/schemas.ts';
import { byKey, bySession } from '../item-families.ts';

export const updateUser = {
  method: 'POST',
  path: '/auth/update-user',
  entry: 'functions/auth/update-user.ts',
  description:
    "Change the user's name or profile image. `image` is an https URL, an image data URL (stored " +
    "and answered as its `/images/…` URL) or `''` to remove it (docs/api.md, Profile images).",
  errorStyle: 'app',
  auth: 'session',
  access: { table: 'readwrite', publicKeys: true, items: [...bySession, ...byKey, 'image'] },
  contract: {
    body: { json: UpdateUserBody },
    responses: { 200: UserResult },
    // rateLimited: concurrent changes of the same user kept replacing its image first.
    errors: [...bodyErrors, ...credentialErrors, 'forbidden', 'rateLimited'],
  },
} as const satisfies RouteSpec;
