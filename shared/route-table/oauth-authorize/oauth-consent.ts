import { NoBody } from '../../contracts/common.ts';
import { ConsentForm } from '../../contracts/oauth-authorize.ts';
import { bodyErrors, type RouteSpec } from '../../route-spec.ts';
import { bySession } from '../item-families.ts';

export const oauthConsent = {
  method: 'POST',
  path: '/oauth/consent',
  entry: 'functions/oauth/consent.ts',
  description:
    "Approve or deny the consent page. Always a redirect on success: 303 to the client's redirect URI with the code, or with `access_denied`.",
  errorStyle: 'html',
  auth: 'platform-cookie',
  access: {
    table: 'readwrite',
    publicKeys: true,
    // The request spent, the role read again, the code written.
    items: [...bySession, 'oauthRequest', 'application', 'organization', 'authorizationCode'],
  },
  contract: {
    body: { form: ConsentForm },
    responses: { 303: NoBody },
    errors: [...bodyErrors, 'forbidden'],
  },
} as const satisfies RouteSpec;
