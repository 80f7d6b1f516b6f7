import { ApplicationView } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { ApplicationPath, UpdateApplicationBody } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const updateApplication = {
  method: 'PATCH',
  path: '/applications/{applicationId}',
  entry: 'functions/applications/update.ts',
  description:
    "Change an application's name, logo or branding. At least one of them; `branding` is replaced whole.",
  errorStyle: 'app',
  auth: 'manage',
  access: { table: 'readwrite', publicKeys: true, items: [...manager, 'resource', 'audit'] },
  permission: { action: 'applications.update', from: 'params' },
  audit: ['application.updated'],
  contract: {
    params: ApplicationPath,
    body: { json: UpdateApplicationBody },
    responses: { 200: ApplicationView },
    errors: writeErrors,
  },
} as const satisfies RouteSpec;
