import { ConnectionList } from '../../contracts/oauth-token.ts';
import { credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { byKey, bySession } from '../item-families.ts';

export const listConnections = {
  method: 'GET',
  path: '/auth/list-connections',
  entry: 'functions/auth/list-connections.ts',
  description: 'List the OAuth connections the user granted. The clients that hold its tokens, newest first.',
  errorStyle: 'app',
  auth: 'session',
  access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey] },
  contract: { responses: { 200: ConnectionList }, errors: [...credentialErrors] },
} as const satisfies RouteSpec;
