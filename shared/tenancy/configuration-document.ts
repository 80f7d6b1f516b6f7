/**
 * An application's configuration (docs/api.md, "Configuration and origin learning"): one validated
 * document, its schemas (strict, so an unknown key is named in the 400), the RFC 7396 merge of a
 * patch, and how it is stored on the application item. It holds
 * `authentication.syntheticEmailDomain` and `oauth.resources`; `origin` is the official origin
 * (docs/api.md, "Origin learning"); `socialProviders` and `socialReturnUrls` are social sign-in's
 * (shared/tenancy/social-providers.ts).
 */
import * as z from 'zod/mini';
import { httpsUri, UniqueHttpsUris } from './https-uri.ts';
import { httpsOrigin } from './origins.ts';
import {
  noSocialProviders,
  providersPatch,
  providersView,
  ReturnUrls,
  replacedProviders,
  SocialProviders,
  SocialProvidersInput,
  SocialProvidersPatch,
} from './social-providers.ts';
import { isReservedTestDomain } from './test-domains.ts';

/** An application registers at most this many OAuth resources. */
const MAX_RESOURCES = 20;

type Ctx = z.core.ParsePayload<unknown>;
const refuse = (ctx: Ctx, input: string, message: string): never => {
  ctx.issues.push({ code: 'custom', message, input });
  return z.NEVER;
};
/** RFC 8707 §2: an absolute https URI without a fragment, in one spelling (shared/tenancy/https-uri.ts). */
export const resourceUri = httpsUri;

const Resources = UniqueHttpsUris(
  MAX_RESOURCES,
  'resource',
  'a resource is an absolute https URI without a fragment',
);

/**
 * An email domain for test addresses (`/auth/code/peek`), lower-cased: a name under a test TLD
 * reserved by RFC 2606 / RFC 6761 only (shared/tenancy/test-domains.ts says why).
 */
const EmailDomain = z.pipe(
  z.string().check(
    z.maxLength(253),
    z.refine(
      (domain: string) => z.regexes.domain.test(domain) && isReservedTestDomain(domain),
      'a domain name under a reserved test top-level domain (.test, .example, .invalid or .localhost), such as bots.acme.test',
    ),
  ),
  z.transform((domain: string) => domain.toLowerCase()),
);

/** The official origin: `https://host[:port]`, serialized as browsers send it. */
const Origin = z.pipe(
  z.string().check(z.maxLength(300)),
  z.transform((text: string, ctx) => {
    const origin = httpsOrigin(text)?.origin;
    return origin ?? refuse(ctx, text, 'an origin is https://host[:port], without a path');
  }),
);

/**
 * The whole document, as `PUT` takes it: every key given (null where it has no value). Client
 * secrets come as plaintext and are sealed before the write is decided (shared/tenancy/configuration.ts).
 */
export const ConfigurationInput = z.strictObject({
  authentication: z.strictObject({ syntheticEmailDomain: z.nullable(EmailDomain) }),
  oauth: z.strictObject({ resources: Resources }),
  origin: z.nullable(Origin),
  socialProviders: SocialProvidersInput,
  socialReturnUrls: ReturnUrls,
});
export type ConfigurationInput = z.output<typeof ConfigurationInput>;

/** A merge patch (RFC 7396) of the document: any key may be left out; null removes (resets) it. */
export const ConfigurationPatch = z.strictObject({
  authentication: z.optional(
    z.nullable(z.strictObject({ syntheticEmailDomain: z.optional(z.nullable(EmailDomain)) })),
  ),
  oauth: z.optional(z.nullable(z.strictObject({ resources: z.optional(z.nullable(Resources)) }))),
  origin: z.optional(z.nullable(Origin)),
  socialProviders: z.optional(z.nullable(SocialProvidersPatch)),
  socialReturnUrls: z.optional(z.nullable(ReturnUrls)),
});
export type ConfigurationPatch = z.output<typeof ConfigurationPatch>;

/** After a merge a removed key takes its default, and the document is validated again as a whole. */
const Merged = z.strictObject({
  authentication: z._default(
    z.strictObject({ syntheticEmailDomain: z._default(z.nullable(EmailDomain), null) }),
    () => ({ syntheticEmailDomain: null }),
  ),
  oauth: z._default(z.strictObject({ resources: z._default(Resources, () => []) }), () => ({
    resources: [],
  })),
  origin: z._default(z.nullable(Origin), null),
  socialProviders: z._default(SocialProviders, noSocialProviders),
  socialReturnUrls: z._default(ReturnUrls, () => []),
});

/** The document as the service holds it: client secrets only in their sealed form. */
export type Configuration = z.output<typeof Merged>;

export const defaultConfiguration = (): Configuration => ({
  authentication: { syntheticEmailDomain: null },
  oauth: { resources: [] },
  origin: null,
  socialProviders: noSocialProviders(),
  socialReturnUrls: [],
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7396 §2 MergePatch: objects merge key by key, null removes, anything else (arrays too) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (value !== undefined) result[key] = mergePatch(result[key], value);
  }
  return result;
}

/**
 * The current document with `patch` (its secrets sealed) merged in, validated as a whole; zod's
 * issues when it is not valid.
 */
export function patched(current: Configuration, patch: ConfigurationPatch) {
  const { socialProviders, ...rest } = patch;
  const merge = socialProviders ? { ...rest, socialProviders: providersPatch(socialProviders) } : patch;
  return z.safeParse(Merged, mergePatch(current, merge));
}

/** `PUT`'s document (its secrets sealed) over the current one: a secret left out is kept. */
export function replaced(current: Configuration, input: ConfigurationInput) {
  return z.safeParse(Merged, {
    ...input,
    socialProviders: replacedProviders(current.socialProviders, input.socialProviders),
  });
}

/** The document as every answer shows it: a client secret only as `{ set }`. */
export const configurationView = (configuration: Configuration) => ({
  ...configuration,
  socialProviders: providersView(configuration.socialProviders),
});

/**
 * The document as the application item holds it: `config` (a map: `authentication`, `oauth`) and
 * `origin` beside it, a top-level attribute so that origin learning can set it alone under its own
 * condition. Items written before the nested document hold `config['authentication.syntheticEmailDomain']`
 * (test fixtures and the bench were the only writers of a configuration then): it is read as the
 * nested key, and the first configuration write replaces the map.
 */
export function configurationFromRecord(application: {
  config?: Record<string, unknown> | undefined;
  origin?: string | undefined;
}): Configuration {
  const stored = application.config ?? {};
  const authentication = isObject(stored.authentication) ? stored.authentication : {};
  const oauth = isObject(stored.oauth) ? stored.oauth : {};
  const legacyDomain = stored['authentication.syntheticEmailDomain'];
  return {
    authentication: {
      syntheticEmailDomain:
        (authentication.syntheticEmailDomain as string | null | undefined) ??
        (typeof legacyDomain === 'string' ? legacyDomain.toLowerCase() : null),
    },
    // A flat `oauth.resources` was never written: only the nested list has its resource items.
    oauth: { resources: Array.isArray(oauth.resources) ? (oauth.resources as string[]) : [] },
    origin: application.origin ?? null,
    // Written only by a validated configuration write: parsed again so the type holds.
    socialProviders: z.safeParse(SocialProviders, stored.socialProviders ?? {}).data ?? noSocialProviders(),
    socialReturnUrls: Array.isArray(stored.socialReturnUrls) ? (stored.socialReturnUrls as string[]) : [],
  };
}

/** The `config` map of the application item (the origin is stored beside it). */
export const storedConfig = (configuration: Configuration) => ({
  authentication: configuration.authentication,
  oauth: configuration.oauth,
  socialProviders: configuration.socialProviders,
  socialReturnUrls: configuration.socialReturnUrls,
});
