import { ApiKeySummary } from '../../contracts/management.ts';
import { manageErrors, type RouteSpec } from '../../route-spec.ts';
import { ApiKeyPath } from '../../tenancy/schemas.ts';
import { manager } from '../item-families.ts';

export const revokeApiKey = {
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
} as const satisfies RouteSpec;
