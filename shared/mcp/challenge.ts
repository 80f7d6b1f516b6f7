/**
 * The refusals of the MCP endpoint as the MCP authorization rules of revision 2026-07-28 word them
 * (RFC 6750 §3, RFC 9728 §5.1): every 401 and 403 names the endpoint's protected resource metadata,
 * so a client that holds no token, or a dead one, discovers where to get one; a 403 for a tool names
 * the one scope to ask for (the step-up).
 */

import { AppError } from '../errors.ts';
import { serviceUrl } from '../service-url.ts';

/** RFC 9728 §3: the metadata of the resource `<ISSUER>/mcp/<applicationId>` (docs/mcp.md, Authorization). */
export const resourceMetadataUrl = (issuer: string, applicationId: string): string =>
  serviceUrl(issuer, `/.well-known/oauth-protected-resource/mcp/${encodeURIComponent(applicationId)}`);

/** RFC 6750 §3: a quoted-string value (no quote or backslash ever comes from a client here). */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

function bearerChallenge(parameters: Record<string, string | undefined>): string {
  const rendered = Object.entries(parameters)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${quoted(value)}`);
  return `Bearer ${rendered.join(', ')}`;
}

/**
 * 401: no token (RFC 6750 §3.1: no error code then), or one that is not a live token of this
 * endpoint (`invalid_token`): forged, expired, of another resource, a session token, its grant revoked.
 */
export function unauthorized(metadata: string, presented: boolean): AppError {
  const header = bearerChallenge({
    ...(presented ? { error: 'invalid_token', error_description: 'The access token is not valid here' } : {}),
    resource_metadata: metadata,
  });
  return new AppError('unauthorized', presented ? 'Invalid access token' : 'An access token is required', {
    headers: { 'www-authenticate': header },
  });
}

/** 403 `insufficient_scope`: the tool needs `scope`, which the token does not hold (the MCP step-up). */
export function insufficientScope(metadata: string, scope: string): AppError {
  const header = bearerChallenge({
    error: 'insufficient_scope',
    scope,
    resource_metadata: metadata,
  });
  return new AppError('forbidden', `This tool needs the scope ${scope}`, {
    headers: { 'www-authenticate': header },
    details: { scope },
  });
}
