/**
 * Streamable HTTP transport: a server MUST validate `Origin`, or a page on any site could reach the
 * endpoint through its visitor's browser (DNS rebinding). MCP clients are processes and send none;
 * a browser's request may come only from the service itself or a platform origin (the dashboard).
 */
import type { Config } from '../config.ts';
import { fail } from '../errors.ts';
import { isPlatformOrigin } from '../sessions/cookies.ts';

export function checkOrigin(config: Config, origin: string | undefined): void {
  if (origin === undefined) return;
  // The service's own origin counts as a platform origin (shared/sessions/cookies.ts).
  if (isPlatformOrigin(config, origin)) return;
  throw fail('forbidden', 'Requests from this origin are not accepted');
}
