/** Applications (docs/api.md "Applications"). Spread into the one table (shared/routes.ts). */
import { NoBody, PublicApplication } from '../contracts/common.ts';
import { ApplicationList, ApplicationView } from '../contracts/management.ts';
import { credentialErrors, type RouteSpec } from '../route-spec.ts';
import {
  ApplicationPath,
  CreateApplicationBody,
  OrganizationPath,
  PageQuery,
  UpdateApplicationBody,
} from '../tenancy/schemas.ts';
import { byKey, manager } from './item-families.ts';
import { manageErrors, writeErrors } from './organizations.ts';

export const applicationRoutes = {
  createApplication: {
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
  },
  listApplications: {
    method: 'GET',
    path: '/organizations/{organizationId}/applications',
    entry: 'functions/applications/list.ts',
    description: "List an organization's applications. Oldest first, paged by `limit` and `offset`.",
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: [...manager, 'organizationApplications'] },
    permission: { action: 'applications.list', from: 'params' },
    contract: {
      params: OrganizationPath,
      query: PageQuery,
      responses: { 200: ApplicationList },
      errors: manageErrors,
    },
  },
  getApplication: {
    method: 'GET',
    path: '/applications/{applicationId}',
    entry: 'functions/applications/get.ts',
    description: 'Read one application: its name, logo and branding.',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: manager },
    permission: { action: 'applications.read', from: 'params' },
    contract: { params: ApplicationPath, responses: { 200: ApplicationView }, errors: manageErrors },
  },
  updateApplication: {
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
  },
  deleteApplication: {
    method: 'DELETE',
    path: '/applications/{applicationId}',
    entry: 'functions/applications/delete.ts',
    description:
      'Delete an application. Revokes all its keys and ends its impersonations; its users and trail stay stored, out of reach.',
    errorStyle: 'app',
    auth: 'manage',
    access: {
      table: 'readwrite',
      publicKeys: true,
      // Its running impersonations end with it (their records, sessions and trail entries).
      items: [...manager, 'organizationApplications', 'resource', 'audit', 'impersonation'],
    },
    permission: { action: 'applications.delete', from: 'params' },
    audit: ['application.deleted', 'impersonation.ended'],
    contract: {
      params: ApplicationPath,
      responses: { 204: NoBody },
      errors: [...manageErrors, 'rateLimited'],
    },
  },
  /** The application of a public or secret key, for sign-in pages to show. */
  applicationByApiKey: {
    method: 'GET',
    path: '/application/by-api-key',
    entry: 'functions/applications/by-api-key.ts',
    description: 'Read the application of the key sent. What a sign-in page shows: name, logo and branding.',
    errorStyle: 'app',
    auth: 'api-key',
    access: { table: 'readwrite', items: byKey },
    contract: { responses: { 200: PublicApplication }, errors: [...credentialErrors] },
  },
} as const satisfies Record<string, RouteSpec>;
