/**
 * The social sign-in part of an application's configuration
 * (docs/api.md, "Configuration and origin learning"): the owner's own OAuth client per provider,
 * and the return URLs the flow may end on. The client secret is write-only
 * (docs/security.md, "Provider client secrets"): a write takes its plaintext, which
 * shared/tenancy/configuration.ts seals before anything else sees it; the document holds only
 * `{ sealed }`; a read shows `{ set }`.
 */

import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import { specialUse } from '../net/special-addresses.ts';
import type { SocialSignInChange } from '../store/audit.ts';
import { HttpsUri, UniqueHttpsUris } from './https-uri.ts';

export const SOCIAL_PROVIDERS = ['google', 'github', 'microsoft', 'oidc'] as const;
export type SocialProviderName = (typeof SOCIAL_PROVIDERS)[number];

/** At most this many return URLs; each is matched exactly, so a handful is all an application needs. */
const MAX_RETURN_URLS = 20;
/**
 * A host that is a literal special-use IP address (RFC 6890): an issuer there could only make the
 * flow reach the service's own host, its VPC or the metadata service. A host name is checked when
 * the flow resolves it, not here (its addresses may change after the write).
 */
function isSpecialIpHost(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  const use = specialUse(host);
  return use !== null && use !== 'not an IP address';
}

/** OpenID Connect Discovery 1.0 §4: the issuer is an https URL with no query or fragment. */
const Issuer = z.pipe(
  HttpsUri('an issuer is an https URL with no fragment'),
  z.string().check(
    z.refine((url: string) => !url.includes('?'), 'an issuer has no query'),
    z.refine((url: string) => !isSpecialIpHost(url), 'an issuer is not on a special-use IP address'),
  ),
);

export const ReturnUrls = UniqueHttpsUris(
  MAX_RETURN_URLS,
  'return URL',
  'a return URL is an absolute https URL without a fragment',
);

const ClientId = z.string().check(z.minLength(1), z.maxLength(512));
/** The plaintext as a write sends it; never stored, answered or logged. */
const PlainSecret = z.string().check(z.minLength(1), z.maxLength(1024));
/** The read form, accepted back: `{ set: true }` keeps the stored secret, `{ set: false }` removes it. */
const SecretState = z.strictObject({ set: z.boolean() });
const SecretInput = z.optional(z.nullable(z.union([PlainSecret, SecretState])));

/** The sealed form the application item holds (shared/crypto/secret-sealer.ts). */
export const SealedSecret = z.strictObject({ sealed: z.string().check(z.minLength(1)) });
export type SealedSecret = z.output<typeof SealedSecret>;

const providerShape = { enabled: z.boolean(), clientId: ClientId };

/** A provider as `PUT` takes it: the secret left out (or `{ set: true }`) keeps the stored one. */
const ProviderInput = z.strictObject({ ...providerShape, clientSecret: SecretInput });
const OidcInput = z.strictObject({ ...providerShape, issuer: Issuer, clientSecret: SecretInput });

export const SocialProvidersInput = z.strictObject({
  google: z.nullable(ProviderInput),
  github: z.nullable(ProviderInput),
  microsoft: z.nullable(ProviderInput),
  oidc: z.nullable(OidcInput),
});
export type SocialProvidersInput = z.output<typeof SocialProvidersInput>;

/** A provider in a merge patch: any key may be left out; `clientSecret: null` removes the secret. */
const ProviderPatch = z.strictObject({
  enabled: z.optional(z.boolean()),
  clientId: z.optional(ClientId),
  clientSecret: SecretInput,
});
const OidcPatch = z.strictObject({
  enabled: z.optional(z.boolean()),
  clientId: z.optional(ClientId),
  issuer: z.optional(Issuer),
  clientSecret: SecretInput,
});
export const SocialProvidersPatch = z.strictObject({
  google: z.optional(z.nullable(ProviderPatch)),
  github: z.optional(z.nullable(ProviderPatch)),
  microsoft: z.optional(z.nullable(ProviderPatch)),
  oidc: z.optional(z.nullable(OidcPatch)),
});
export type SocialProvidersPatch = z.output<typeof SocialProvidersPatch>;

/** A provider as stored and merged: the secret sealed, or none. */
const secretRequired = z.check<{ enabled: boolean; clientSecret: SealedSecret | null }>((ctx) => {
  if (ctx.value.enabled && ctx.value.clientSecret === null) {
    ctx.issues.push({
      code: 'custom',
      message: 'an enabled provider needs its client secret',
      input: ctx.value,
      path: ['clientSecret'],
    });
  }
});
const storedShape = { ...providerShape, clientSecret: z._default(z.nullable(SealedSecret), null) };
const StoredProvider = z.strictObject(storedShape).check(secretRequired);
const StoredOidc = z.strictObject({ ...storedShape, issuer: Issuer }).check(secretRequired);

export const SocialProviders = z.strictObject({
  google: z._default(z.nullable(StoredProvider), null),
  github: z._default(z.nullable(StoredProvider), null),
  microsoft: z._default(z.nullable(StoredProvider), null),
  oidc: z._default(z.nullable(StoredOidc), null),
});
export type SocialProviders = z.output<typeof SocialProviders>;

export const noSocialProviders = (): SocialProviders => ({
  google: null,
  github: null,
  microsoft: null,
  oidc: null,
});

/** Seals `plaintext` for the application (the configuration write's `deps.sealer.seal`). */
export type Seal = (plaintext: string) => Promise<string>;

type Secret = string | { set: boolean } | null | undefined;

/** A plaintext secret sealed; the other forms as they are (merge and PUT decide what they mean). */
const sealOne = async (
  secret: Secret,
  seal: Seal,
): Promise<SealedSecret | { set: boolean } | null | undefined> =>
  typeof secret === 'string' ? { sealed: await seal(secret) } : secret;

/**
 * The providers of a write with every plaintext secret sealed, before the write is decided (and
 * decided again after a lost race, without sealing again). Only `{ sealed }`, `{ set }`, null or
 * nothing remain.
 */
export async function sealSecrets<
  P extends Partial<Record<SocialProviderName, { clientSecret?: Secret } | null>>,
>(providers: P, seal: Seal): Promise<P> {
  const sealed: Record<string, unknown> = { ...providers };
  for (const name of SOCIAL_PROVIDERS) {
    const provider = providers[name];
    if (provider && provider.clientSecret !== undefined) {
      sealed[name] = { ...provider, clientSecret: await sealOne(provider.clientSecret, seal) };
    }
  }
  return sealed as P;
}

/** `{ set: true }` or nothing keeps the stored secret; `{ set: false }` is null (removed). */
function keptSecret(secret: unknown, stored: SealedSecret | null | undefined): SealedSecret | null {
  if (secret === undefined || (typeof secret === 'object' && secret !== null && 'set' in secret)) {
    return secret === undefined || (secret as { set: boolean }).set ? (stored ?? null) : null;
  }
  return secret as SealedSecret | null;
}

/** `PUT`'s providers (secrets already sealed) over the stored ones, as the document will hold them. */
export function replacedProviders(current: SocialProviders, input: SocialProvidersInput): unknown {
  return Object.fromEntries(
    SOCIAL_PROVIDERS.map((name) => {
      const given = input[name];
      if (given === null) return [name, null];
      return [name, { ...given, clientSecret: keptSecret(given.clientSecret, current[name]?.clientSecret) }];
    }),
  );
}

/**
 * A patch's providers (secrets already sealed) in merge-patch form: `{ set: true }` is left out
 * (keep), `{ set: false }` becomes null (remove); `{ sealed }` replaces the stored object whole.
 */
export function providersPatch(patch: SocialProvidersPatch): unknown {
  return Object.fromEntries(
    Object.entries(patch).map(([name, provider]) => {
      if (!provider || provider.clientSecret === undefined) return [name, provider];
      const { clientSecret, ...rest } = provider as { clientSecret: unknown };
      if (typeof clientSecret === 'object' && clientSecret !== null && 'set' in clientSecret) {
        return [name, (clientSecret as { set: boolean }).set ? rest : { ...rest, clientSecret: null }];
      }
      return [name, { ...rest, clientSecret }];
    }),
  );
}

/** A provider as a read answers it: the secret only as `{ set }`, never its sealed form. */
function providerView<P extends { clientSecret: SealedSecret | null }>(provider: P | null) {
  if (provider === null) return null;
  const { clientSecret, ...rest } = provider;
  return { ...rest, clientSecret: { set: clientSecret !== null } };
}

/**
 * 400 issues for each provider whose client id or issuer changes while it keeps its stored secret:
 * whoever may write the configuration could otherwise point the owner's secret at a client or an
 * issuer they control, and the callback would send it there. A secret given again is sealed anew
 * (a fresh IV), so only a kept secret is the same sealed string.
 */
export function retargetedSecrets(current: SocialProviders, next: SocialProviders): core.$ZodIssue[] {
  return SOCIAL_PROVIDERS.flatMap((name) => {
    const before = current[name];
    const after = next[name];
    if (!before?.clientSecret || after?.clientSecret?.sealed !== before.clientSecret.sealed) return [];
    const issuerChanged =
      'issuer' in after && 'issuer' in before && (after as { issuer: string }).issuer !== before.issuer;
    if (after.clientId === before.clientId && !issuerChanged) return [];
    return [
      {
        code: 'custom' as const,
        path: ['socialProviders', name, 'clientSecret'],
        message: 'changing the client id or issuer needs the client secret again',
        input: undefined,
      },
    ];
  });
}

/** The providers as a read answers them. */
export const providersView = (providers: SocialProviders) => ({
  google: providerView(providers.google),
  github: providerView(providers.github),
  microsoft: providerView(providers.microsoft),
  oidc: providerView(providers.oidc),
});

/** What the audit trail records of a provider's field: the value, but a secret only as set or new. */
function auditValue(field: string, value: unknown, sealedBefore?: string): string | boolean | null {
  if (value === undefined || value === null) return null;
  if (field !== 'clientSecret') return value as string | boolean;
  return (value as SealedSecret).sealed === sealedBefore ? 'set' : 'new secret';
}

/**
 * Every change a write makes to social sign-in, for the audit entry of that write
 * (shared/store/audit.ts `SocialSignInChange`): each provider field that differs, a secret given
 * again counted (it is sealed anew) but never shown, and the return URLs before and after when
 * the list changed. Empty exactly when the write leaves social sign-in as it was.
 */
export function socialSignInChanges(
  before: { socialProviders: SocialProviders; socialReturnUrls: readonly string[] },
  next: { socialProviders: SocialProviders; socialReturnUrls: readonly string[] },
): SocialSignInChange[] {
  const changes: SocialSignInChange[] = [];
  for (const name of SOCIAL_PROVIDERS) {
    const was = (before.socialProviders[name] ?? {}) as Record<string, unknown>;
    const is = (next.socialProviders[name] ?? {}) as Record<string, unknown>;
    const sealedBefore = (was.clientSecret as SealedSecret | null | undefined)?.sealed;
    for (const field of new Set([...Object.keys(was), ...Object.keys(is)])) {
      const from = auditValue(field, was[field], sealedBefore);
      const to = auditValue(field, is[field], sealedBefore);
      if (from !== to) changes.push({ path: `socialProviders.${name}.${field}`, from, to });
    }
  }
  // The whole list: its order matters too (the first is where a start without return_to goes).
  const [urlsFrom, urlsTo] = [[...before.socialReturnUrls], [...next.socialReturnUrls]];
  if (!isDeepStrictEqual(urlsFrom, urlsTo)) {
    changes.push({ path: 'socialReturnUrls', from: urlsFrom, to: urlsTo });
  }
  return changes;
}
