import { SessionList } from '../../contracts/sessions.ts';
import { credentialErrors, type RouteSpec } from '../../route-spec.ts';
import { byKey, bySession } from '../item-families.ts';

export const listSessions = {
  method: 'GET',
  path: '/auth/list-sessions',
  entry: 'functions/auth/list-sessions.ts',
  description: "List the user's live sessions. Newest first, the current one marked, with device and IP.",
  errorStyle: 'app',
  auth: 'session',
  access: { table: 'read', publicKeys: true, items: [...bySession, ...byKey] },
  contract: { responses: { 200: SessionList }, errors: [...credentialErrors] },
} as const satisfies RouteSpec;
