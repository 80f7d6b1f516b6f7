import { StatusReport } from '../../contracts/health.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const status = {
  method: 'GET',
  path: '/status',
  entry: 'functions/health/status.ts',
  description:
    'Check the database and the signing keys. Always 200: a failed check is `down`, one slower ' +
    'than 400 ms `degraded`, each with its latency.',
  errorStyle: 'app',
  auth: 'none',
  access: { table: 'read', publicKeys: true, items: ['health'] },
  contract: { responses: { 200: StatusReport }, errors: [] },
} as const satisfies RouteSpec;
