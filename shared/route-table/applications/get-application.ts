import { ApplicationView } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApplicationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const getApplication = {
  method: 'GET',
  path: '/applications/{applicationId}',
  entry: 'functions/applications/get.ts',
  description: 'Read one application: its name, logo and branding.',
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'read', publicKeys: true, items: manager },
  permission: { action: 'applications.read', from: 'params' },
  contract: { params: ApplicationPath, responses: { 200: ApplicationView }, errors: manageErrors },
} as const satisfies RouteSpec;
