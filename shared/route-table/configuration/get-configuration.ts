import { ConfigurationView } from '../../contracts/configuration.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const getConfiguration = {
  method: 'GET',
  path: '/applications/{applicationId}/configuration',
  entry: 'functions/configuration/get.ts',
  description: "Read an application's configuration document. Client secrets show only whether they are set.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: manager },
  permission: { action: 'configuration.read', from: 'params' },
  contract: { params: ApplicationPath, responses: { 200: ConfigurationView }, errors: manageErrors },
} as const satisfies RouteSpec;
