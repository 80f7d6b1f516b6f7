import { describe, expect, it } from 'vitest';
import { sameResource } from '../../shared/oauth/role.ts';
import { resourceMetadataUrl } from '../../shared/tenancy/resource-proof.ts';
import { canonicalResource } from '../../shared/tenancy/service-resources.ts';

describe('canonicalResource: the one spelling of a resource (docs/oauth.md, "Resources of other servers")', () => {
  it.each([
    ['https://VICTIM-RS.example:443/mcp', 'https://victim-rs.example/mcp'],
    ['HTTPS://Api.Example/MCP', 'https://api.example/MCP'],
    ['https://api.example', 'https://api.example/'],
    ['https://api.example:8443/mcp/', 'https://api.example:8443/mcp/'],
    ['https://api.example/a/../mcp', 'https://api.example/mcp'],
    ['http://127.0.0.1:3000/mcp/app_1', 'http://127.0.0.1:3000/mcp/app_1'],
  ])('writes %s as %s', (text, canonical) => {
    expect(canonicalResource(text)).toBe(canonical);
  });

  it.each([
    'https://api.example/mcp#',
    'https://api.example/mcp#x',
    'https://user@api.example/mcp',
    'https:api.example/mcp',
    '/mcp',
    ' https://api.example/mcp',
    'https://api.exa\tmple/mcp',
    'https://api.example\\mcp',
    'not a uri',
  ])('refuses %j', (text) => {
    expect(canonicalResource(text)).toBeNull();
  });

  it('compares a repeated resource parameter in its canonical form', () => {
    expect(sameResource('https://API.example:443/mcp', 'https://api.example/mcp')).toBe(true);
    expect(sameResource('https://api.example/mcp/', 'https://api.example/mcp')).toBe(false);
    expect(sameResource('https://api.example/mcp#x', 'https://api.example/mcp')).toBe(false);
  });
});

describe('resourceMetadataUrl: RFC 9728 §3.1 path insertion', () => {
  it.each([
    ['https://api.example/mcp', 'https://api.example/.well-known/oauth-protected-resource/mcp'],
    ['https://api.example/', 'https://api.example/.well-known/oauth-protected-resource'],
    ['https://api.example/v1/mcp/', 'https://api.example/.well-known/oauth-protected-resource/v1/mcp/'],
    [
      'https://api.example:8443/mcp?t=1',
      'https://api.example:8443/.well-known/oauth-protected-resource/mcp?t=1',
    ],
  ])('fetches the metadata of %s at %s', (resource, url) => {
    expect(resourceMetadataUrl(resource).href).toBe(url);
  });
});
