import type { Deps } from '../deps.ts';
import { getApplication } from '../tenancy/applications.ts';
import { ownMcpResource } from '../tenancy/service-resources.ts';
import { protectedResourceMetadata } from './discovery.ts';

/**
 * The protected resource metadata (RFC 9728) of the application's MCP endpoint, whose `resource`
 * is the `aud` of its access tokens; null when no such application exists. One eventually
 * consistent read.
 */
export async function applicationResourceMetadata(deps: Deps, applicationId: string) {
  const application = await getApplication(deps, applicationId);
  if (!application) return null;
  return protectedResourceMetadata(deps.config.ISSUER, ownMcpResource(deps.config.ISSUER, application.id));
}
