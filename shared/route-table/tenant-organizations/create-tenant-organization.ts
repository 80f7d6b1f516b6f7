import { TenantOrganization } from '../../contracts/users.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { ApplicationPath, CreateTenantOrganizationBody } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';
import { base, readwrite, writeOrgs } from './common.ts';

export const createTenantOrganization = {
  method: 'POST',
  path: base,
  entry: 'functions/tenant-organizations/create.ts',
  description:
    "Create a tenant organization owned by one of the application's users, named by `userId` or `email`.",
  errorStyle: 'app',
  auth: 'manage',
  access: { ...readwrite, items: [...manager, 'applicationOrganizations', 'audit'] },
  permission: writeOrgs,
  audit: ['tenantOrganization.created'],
  contract: {
    params: ApplicationPath,
    body: { json: CreateTenantOrganizationBody },
    responses: { 201: TenantOrganization },
    errors: writeErrors,
  },
} as const satisfies RouteSpec;
