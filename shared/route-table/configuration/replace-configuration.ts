import { ConfigurationView } from '../../contracts/configuration.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { ConfigurationInput } from '../../tenancy/configuration-document.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const replaceConfiguration = {
  method: 'PUT',
  path: '/applications/{applicationId}/configuration',
  entry: 'functions/configuration/replace.ts',
  description:
    "Replace an application's configuration document. Checked whole, unknown keys refused; a new external OAuth resource must prove that its server names this service.",
  errorStyle: 'app',
  auth: 'manage',
  access: {
    table: 'readwrite',
    publicKeys: true,
    seal: 'encrypt',
    // A change of social sign-in appends its audit entry in the configuration's transaction.
    items: [...manager, 'resource', 'audit'],
  },
  permission: { action: 'configuration.write', from: 'params' },
  audit: ['configuration.changed', 'socialSignIn.changed'],
  contract: {
    params: ApplicationPath,
    body: { json: ConfigurationInput },
    responses: { 200: ConfigurationView },
    errors: [...writeErrors, 'resourceTaken'],
  },
} as const satisfies RouteSpec;
