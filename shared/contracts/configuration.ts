import * as z from 'zod/mini';

/**
 * A client secret as every answer shows it: whether one is stored, never its value
 * (docs/security.md, Provider client secrets).
 */
const SecretView = z.object({ set: z.boolean() });
const ProviderView = z.object({ enabled: z.boolean(), clientId: z.string(), clientSecret: SecretView });

/** An application's configuration document (shared/tenancy/configuration-document.ts), as answered. */
export const ConfigurationView = z.object({
  authentication: z.object({ syntheticEmailDomain: z.nullable(z.string()) }),
  oauth: z.object({ resources: z.array(z.string()) }),
  origin: z.nullable(z.string()),
  socialProviders: z.object({
    google: z.nullable(ProviderView),
    github: z.nullable(ProviderView),
    microsoft: z.nullable(ProviderView),
    oidc: z.nullable(z.object({ ...ProviderView.shape, issuer: z.string() })),
  }),
  socialReturnUrls: z.array(z.string()),
});
