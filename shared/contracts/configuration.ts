import * as z from 'zod/mini';

/** An application's configuration document (shared/tenancy/configuration-document.ts), as answered. */
export const ConfigurationView = z.object({
  authentication: z.object({ syntheticEmailDomain: z.nullable(z.string()) }),
  oauth: z.object({ resources: z.array(z.string()) }),
  origin: z.nullable(z.string()),
});
