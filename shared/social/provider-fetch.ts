/**
 * The Fetch API oauth4webapi calls providers through (its `customFetch`): every request goes out
 * through the SSRF-safe pinned request (shared/net/pinned-request.ts), since a generic OpenID
 * Connect issuer is a URL an application's configuration names. No redirects (oauth4webapi asks for
 * `manual` and treats a 3xx as an error), 64 KB at most, 5 s per request.
 */
import { customFetch } from 'oauth4webapi';
import type { Config } from '../config.ts';
import { pinnedRequest } from '../net/pinned-request.ts';

/** Enough for any discovery document, JWKS, token or user answer of the providers. */
const MAX_PROVIDER_ANSWER_BYTES = 64 * 1024;
/** One provider request; a callback makes at most three (token, user, emails) within the function's 10 s. */
const PROVIDER_TIMEOUT_MS = 2_500;

/** Thrown when a request could not be made or answered; the flow shows the provider as unreachable. */
export class ProviderUnreachable extends Error {
  override name = 'ProviderUnreachable';
}

type Init = { method?: string; headers?: Record<string, string>; body?: unknown };

function providerFetch(config: Config) {
  return async (url: string, init: Init): Promise<Response> => {
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : init.body instanceof URLSearchParams
          ? init.body.toString()
          : String(init.body);
    const answer = await pinnedRequest(new URL(url), {
      method: init.method === 'POST' ? 'POST' : 'GET',
      headers: init.headers ?? {},
      ...(body === undefined ? {} : { body }),
      maxBytes: MAX_PROVIDER_ANSWER_BYTES,
      timeoutMs: PROVIDER_TIMEOUT_MS,
      allowLoopback: config.OAUTH_METADATA_ALLOW_LOOPBACK,
      caFile: config.OAUTH_METADATA_CA_FILE,
    });
    if (!answer.ok) throw new ProviderUnreachable(`${new URL(url).host}: ${answer.message}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const one of value) headers.append(name, one);
      else if (value !== undefined) headers.set(name, value);
    }
    const noBody = answer.status === 204 || answer.status === 304;
    return new Response(noBody ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}

/** The oauth4webapi options every provider call takes. */
export const providerCallOptions = (config: Config) => ({ [customFetch]: providerFetch(config) });
