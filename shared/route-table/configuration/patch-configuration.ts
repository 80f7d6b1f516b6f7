import { ConfigurationView } from '../../contracts/configuration.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { ConfigurationPatch } from '../../tenancy/configuration-document.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

/** RFC 7396 JSON merge patch (`application/merge-patch+json` or `application/json`). */
export const patchConfiguration = {
  method: 'PATCH',
  path: '/applications/{applicationId}/configuration',
  entry: 'functions/configuration/patch.ts',
  description:
    "Change part of an application's configuration by an RFC 7396 merge patch. Keys left out stay, `null` removes one; the result is checked whole and merged again if another write lands first.",
  errorStyle: 'app',
  auth: 'manage',
  access: {
    table: 'readwrite',
    publicKeys: true,
    seal: 'encrypt',
    items: [...manager, 'resource', 'audit'],
  },
  permission: { action: 'configuration.write', from: 'params' },
  audit: ['configuration.changed', 'socialSignIn.changed'],
  contract: {
    params: ApplicationPath,
    body: { json: ConfigurationPatch, mergePatch: true },
    responses: { 200: ConfigurationView },
    errors: [...writeErrors, 'resourceTaken'],
  },
} as const satisfies RouteSpec;
