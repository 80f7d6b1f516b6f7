import { PublicApplication } from '../../contracts/common.ts';
import { credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { byKey } from '../item-families.ts';

/** The application of a public or secret key, for sign-in pages to show. */
export const applicationByApiKey = {
  method: 'GET',
  path: '/application/by-api-key',
  entry: 'functions/applications/by-api-key.ts',
  description: 'Read the application of the key sent. What a sign-in page shows: name, logo and branding.',
  errorStyle: 'app',
  auth: 'api-key',
  access: { table: 'readwrite', items: byKey },
  contract: { responses: { 200: PublicApplication }, errors: [...credentialErrors] },
} as const satisfies RouteSpec;
