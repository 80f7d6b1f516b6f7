import { Root } from '../../contracts/health.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const root = {
  method: 'GET',
  path: '/',
  entry: 'functions/health/root.ts',
  description: "Say the service is up. Always 200 while it runs, with the service's name and the time.",
  errorStyle: 'app',
  auth: 'none',
  access: {},
  contract: { responses: { 200: Root }, errors: [] },
} as const satisfies RouteSpec;
