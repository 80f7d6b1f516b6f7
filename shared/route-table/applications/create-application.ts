import { ApplicationView } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { CreateApplicationBody, OrganizationPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const createApplication = {
  method: 'POST',
  path: '/application/{organizationId}',
  entry: 'functions/applications/create.ts',
  description:
    "Create an application in an organization. Counted against the organization's plan (`PLAN_LIMIT_REACHED`).",
  errorStyle: 'app',
  auth: 'manage',
  access: {
    table: 'readwrite',
    publicKeys: true,
    items: [...manager, 'organizationApplications', 'audit'],
  },
  permission: { action: 'applications.create', from: 'params' },
  audit: ['application.created'],
  contract: {
    params: OrganizationPath,
    body: { json: CreateApplicationBody },
    responses: { 201: ApplicationView },
    errors: [...writeErrors, 'planLimit'],
  },
} as const satisfies RouteSpec;
