/**
 * Proof that a resource an application registers in `oauth.resources` names this service as its
 * authorization server (RFC 9728 §3.3, https://www.rfc-editor.org/rfc/rfc9728#section-3.3): the
 * resource's own protected resource metadata, fetched at the well-known URL its identifier names
 * (§3.1), must say that `resource` is exactly this resource and list this service's issuer in
 * `authorization_servers`. Without it a tenant could register a server it does not run and have
 * the service mint tokens whose `aud` is that server. The fetch is the SSRF-safe one of client
 * metadata documents (shared/net/metadata-fetch.ts). docs/oauth.md, "Resources of other
 * servers", states the rule and how an owner publishes the document.
 */
import type * as z from 'zod/v4/core';
import type { Deps } from '../deps.ts';
import { type FetchOptions, fetchMetadataDocument } from '../net/metadata-fetch.ts';
import { ownMcpResource } from './service-resources.ts';

/** Why a resource was refused: its document could not be had, was no JSON object, or did not vouch. */
type ResourceRefusal = 'unreachable' | 'not-json' | 'resource-mismatch' | 'issuer-not-listed';

type ResourceProof = { ok: true } | { ok: false; reason: ResourceRefusal; message: string };

/** A value of the fetched document quoted in a message: JSON, cut short (it is another party's text). */
const quoted = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/**
 * RFC 9728 §3.1: the well-known segment goes between the host and the path (and query); a path
 * that is only the terminating slash is dropped first, so `https://api.example/` has its document
 * at `https://api.example/.well-known/oauth-protected-resource` and `https://api.example/mcp` at
 * `https://api.example/.well-known/oauth-protected-resource/mcp`.
 */
export function resourceMetadataUrl(resource: string): URL {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return new URL(`${url.origin}/.well-known/oauth-protected-resource${path}${url.search}`);
}

/**
 * Fetches the protected resource metadata of `resource` (its stored, canonical form) and checks
 * that it vouches for this service. `resource` is compared character for character (§3.3: the
 * values must be identical), so the document names the resource in the form the configuration
 * shows and tokens carry as `aud`; the issuer likewise (RFC 8414 §3.3).
 */
async function proveResource(
  deps: Pick<Deps, 'config' | 'logger'>,
  resource: string,
  options: FetchOptions = {},
): Promise<ResourceProof> {
  const url = resourceMetadataUrl(resource);
  const where = `${resource}: its protected resource metadata (RFC 9728) at ${url.href}`;
  const refuse = (reason: ResourceRefusal, message: string): ResourceProof => {
    deps.logger.log('info', 'resource metadata refused', { host: url.host, reason });
    return { ok: false, reason, message };
  };
  const fetched = await fetchMetadataDocument(url, {
    allowLoopback: deps.config.OAUTH_METADATA_ALLOW_LOOPBACK,
    caFile: deps.config.OAUTH_METADATA_CA_FILE,
    naming: { document: 'the document', host: 'the resource host' },
    ...options,
  });
  if (!fetched.ok) {
    return fetched.reason === 'content-type' || fetched.reason === 'not-json'
      ? refuse('not-json', `${where} is not JSON: ${fetched.message}`)
      : refuse(
          'unreachable',
          `${where} could not be fetched: ${fetched.reason === 'unreachable' ? 'no connection or no answer' : fetched.message}`,
        );
  }
  const document = fetched.document;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return refuse('not-json', `${where} is not a JSON object`);
  }
  const fields = document as Record<string, unknown>;
  if (fields.resource !== resource) {
    return refuse(
      'resource-mismatch',
      `${where} names the resource ${quoted(fields.resource)}, not ${resource}`,
    );
  }
  const servers = fields.authorization_servers;
  if (!Array.isArray(servers) || !servers.includes(deps.config.ISSUER)) {
    return refuse(
      'issuer-not-listed',
      `${where} has authorization_servers ${quoted(servers)}, which does not list this service's issuer ${deps.config.ISSUER}`,
    );
  }
  return { ok: true };
}

/**
 * The checker of one configuration write of `applicationId`: given the resources held before and
 * those wanted, the issues (at `oauth.resources.<index>`) of each resource the write adds that is
 * not proven. Resources already held are not fetched again (docs/oauth.md says why), nor is the
 * application's own MCP resource, which this service serves itself. Proofs are fetched in parallel
 * and kept for the request, so a write decided again after a lost race fetches nothing twice.
 */
export function resourceProver(deps: Pick<Deps, 'config' | 'logger'>, applicationId: string) {
  const proofs = new Map<string, Promise<ResourceProof>>();
  const own = ownMcpResource(deps.config.ISSUER, applicationId);
  return async (held: readonly string[], wanted: readonly string[]): Promise<z.$ZodIssue[]> => {
    const before = new Set(held);
    const added = wanted.flatMap((uri, index) => (before.has(uri) || uri === own ? [] : [{ uri, index }]));
    const checked = await Promise.all(
      added.map(async ({ uri, index }) => {
        let proof = proofs.get(uri);
        if (!proof) {
          proof = proveResource(deps, uri);
          proofs.set(uri, proof);
        }
        return { uri, index, proof: await proof };
      }),
    );
    return checked.flatMap(({ uri, index, proof }) =>
      proof.ok
        ? []
        : [
            {
              code: 'custom' as const,
              path: ['oauth', 'resources', index],
              message: proof.message,
              input: uri,
            },
          ],
    );
  };
}
