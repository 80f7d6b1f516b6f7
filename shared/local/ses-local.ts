import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { guardLoopbackHost } from './loopback-host.ts';

export interface SesLocal {
  endpoint: string;
  /** The emulator's inbox page (and `GET /store` for the raw messages). */
  inbox: string;
  stop(): Promise<void>;
}

type SesServerFactory = (config: { host: string; port: number }) => Promise<Server>;

/**
 * Starts the aws-ses-v2-local emulator in this process, bound to loopback (its default is every
 * interface). Loaded through createRequire: its CommonJS default export differs between tsx and vitest.
 */
export async function startSesLocal({ port }: { port: number }): Promise<SesLocal> {
  const require = createRequire(import.meta.url);
  const module = require('aws-ses-v2-local') as { default: SesServerFactory };
  const server = await module.default({ host: '127.0.0.1', port });
  // Its store holds every sign-in code sent: no page may read it under a rebound name.
  guardLoopbackHost(server, () => port);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    inbox: `${endpoint}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
