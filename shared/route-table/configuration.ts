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
    description:
      "Read an application's configuration document. Client secrets show only whether they are set.",
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
  },
  /** RFC 7396 JSON merge patch (`application/merge-patch+json` or `application/json`). */
  patchConfiguration: {
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
  },
} as const satisfies Record<string, RouteSpec>;
