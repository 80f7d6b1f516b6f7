import { Jwks } from '../../contracts/health.ts';
import type { RouteSpec } from '../../route-spec.ts';

export const jwks = {
  method: 'GET',
  path: '/.well-known/jwks.json',
  entry: 'functions/well-known/jwks.ts',
  description:
    'Publish the public keys that verify session and access tokens. Every configured key, the ' +
    'active one first; `kid` is its RFC 7638 thumbprint. Cacheable for an hour.',
  errorStyle: 'app',
  auth: 'none',
  access: { publicKeys: true },
  contract: { responses: { 200: Jwks }, errors: [] },
} as const satisfies RouteSpec;
