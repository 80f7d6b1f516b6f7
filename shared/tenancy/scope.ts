import type { Deps } from '../deps.ts';
import { unauthorized } from '../errors.ts';
import type { HttpEvent } from '../http/types.ts';
import { PLATFORM } from '../store/keys.ts';
import { type ApiKey, resolveApiKey } from './api-keys.ts';
import { type Application, getApplication } from './applications.ts';

export interface KeyScope {
  /** `platform` without a key, else the key's application id (SPEC §1.3). */
  scope: string;
  key: ApiKey | null;
}

/** The scope a sign-in request works in, from the optional `X-API-Key`. */
export async function scopeOf(deps: Deps, event: HttpEvent): Promise<KeyScope> {
  const presented = event.headers?.['x-api-key'];
  if (presented === undefined) return { scope: PLATFORM, key: null };
  const key = await resolveApiKey(deps, presented);
  return { scope: key.applicationId, key };
}

/** The key's application, or 401 when the key outlived it. */
export async function applicationOf(deps: Deps, key: ApiKey): Promise<Application> {
  const application = await getApplication(deps, key.applicationId);
  if (!application) throw unauthorized('The API key is not valid');
  return application;
}

/** The key's scope when the presented key is valid, else null (for routes that must not fail on it). */
export async function knownKeyScope(deps: Deps, event: HttpEvent): Promise<string | null> {
  try {
    return (await scopeOf(deps, event)).key?.applicationId ?? null;
  } catch {
    return null;
  }
}
