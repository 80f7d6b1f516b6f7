/** API keys (docs/api.md "API keys"). Spread into the one table (shared/routes.ts). */
import { ApiKeyCreated, ApiKeyList, ApiKeySummary } from '../contracts/management.ts';
import type { RouteSpec } from '../route-spec.ts';
import { ApiKeyPath, ApplicationPath, CreateApiKeyBody } from '../tenancy/schemas.ts';
import { manager } from './item-families.ts';
import { manageErrors, writeErrors } from './organizations.ts';

export const apiKeyRoutes = {
  createApiKey: {
    method: 'POST',
    path: '/api-keys',
    entry: 'functions/api-keys/create.ts',
    description:
      'Create a public (`pu_…`) or secret (`sk_…`) key of an application. The full key is in this answer only; an application holds at most 20 active keys.',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'audit'] },
    permission: { action: 'apiKeys.create', from: 'body' },
    audit: ['apiKey.created'],
    contract: {
      body: { json: CreateApiKeyBody },
      responses: { 201: ApiKeyCreated },
      errors: [...writeErrors, 'apiKeyLimit'],
    },
  },
  listApiKeys: {
    method: 'GET',
    path: '/applications/{applicationId}/api-keys',
    entry: 'functions/api-keys/list.ts',
    description:
      "List an application's keys. Newest first, each by its prefix; revoked ones stay listed for 30 days.",
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'read', publicKeys: true, items: manager },
    permission: { action: 'apiKeys.list', from: 'params' },
    contract: { params: ApplicationPath, responses: { 200: ApiKeyList }, errors: manageErrors },
  },
  revokeApiKey: {
    method: 'DELETE',
    path: '/applications/{applicationId}/api-keys/{keyId}',
    entry: 'functions/api-keys/revoke.ts',
    description:
      'Revoke a key. It answers 401 on the very next request; revoking again answers the same record.',
    errorStyle: 'app',
    auth: 'manage',
    access: { table: 'readwrite', publicKeys: true, items: [...manager, 'audit'] },
    permission: { action: 'apiKeys.revoke', from: 'params' },
    audit: ['apiKey.revoked'],
    contract: {
      params: ApiKeyPath,
      responses: { 200: ApiKeySummary },
      errors: [...manageErrors, 'rateLimited'],
    },
  },
} as const satisfies Record<string, RouteSpec>;
