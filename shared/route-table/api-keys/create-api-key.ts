import { ApiKeyCreated } from '../../contracts/management.ts';
import { type RouteSpec, writeErrors } from '../../route-spec.ts';
import { CreateApiKeyBody } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const createApiKey = {
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
} as const satisfies RouteSpec;
