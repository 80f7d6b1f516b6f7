import type { Deps } from '../deps.ts';
import { newId } from '../random.ts';
import { putApplication, readApplication } from '../store/applications.ts';

/** Application configuration keys named by SPEC §2. */
export interface ApplicationConfig {
  'authentication.syntheticEmailDomain'?: string;
  'oauth.resources'?: string[];
}

export interface Application {
  id: string;
  organizationId: string;
  name: string;
  logoUrl: string | null;
  config: ApplicationConfig;
  createdAt: string;
}

/** The fields of an application any key holder may see. */
export const publicApplication = (app: Application) => ({ id: app.id, name: app.name, logoUrl: app.logoUrl });

export function applicationFromItem(item: Record<string, unknown>): Application {
  return {
    id: item.id as string,
    organizationId: item.organizationId as string,
    name: item.name as string,
    logoUrl: (item.logoUrl as string | undefined) ?? null,
    config: (item.config as ApplicationConfig | undefined) ?? {},
    createdAt: item.createdAt as string,
  };
}

export async function getApplication(deps: Deps, applicationId: string): Promise<Application | null> {
  const item = await readApplication(deps.db, applicationId);
  return item ? applicationFromItem(item) : null;
}

export async function createApplication(
  deps: Deps,
  input: { organizationId: string; name: string; logoUrl?: string; config?: ApplicationConfig },
): Promise<Application> {
  const app: Application = {
    id: newId(deps.random, 'app'),
    organizationId: input.organizationId,
    name: input.name,
    logoUrl: input.logoUrl ?? null,
    config: input.config ?? {},
    createdAt: new Date(deps.clock.now()).toISOString(),
  };
  const stored = await putApplication(deps.db, app);
  if (stored.outcome === 'exists') throw new Error('a new application id collided with a stored one');
  return app;
}
