/**
 * Application configuration (docs/api.md "Configuration and origin learning"). Spread into the one
 * table (shared/routes.ts).
 */
import { ConfigurationView } from '../contracts/configuration.ts';
import type { RouteSpec } from '../route-spec.ts';
import { ConfigurationInput, ConfigurationPatch } from '../tenancy/configuration-document.ts';
import { ApplicationPath } from '../tenancy/schemas.ts';
import { manager } from './item-families.ts';
import { manageErrors, writeErrors } from './organizations.ts';

export const configurationRoutes = {
  getConfiguration: {
    method: 'GET',
    path: '/applications/{applicationId}/configuration',
    entry: 'functions/configuration/get.ts',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: manager },
    permission: { action: 'configuration.read', from: 'params' },
    contract: { params: ApplicationPath, responses: { 200: ConfigurationView }, errors: manageErrors },
  },
  replaceConfiguration: {
    method: 'PUT',
    path: '/applications/{applicationId}/configuration',
    entry: 'functions/configuration/replace.ts',
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
  },
  /** RFC 7396 JSON merge patch (`application/merge-patch+json` or `application/json`). */
  patchConfiguration: {
    method: 'PATCH',
    path: '/applications/{applicationId}/configuration',
    entry: 'functions/configuration/patch.ts',
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
      body: { json: ConfigurationPatch },
      responses: { 200: ConfigurationView },
      errors: [...writeErrors, 'resourceTaken'],
    },
  },
} as const satisfies Record<string, RouteSpec>;
