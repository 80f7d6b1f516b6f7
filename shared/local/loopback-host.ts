import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Whether a request names this loopback server as its host. A web page can point a name of its own
 * at 127.0.0.1 (DNS rebinding) and then read a local server's answers as same-origin: the sign-in
 * codes in the mail emulator's store, the answers of the service. Binding to loopback keeps other
 * machines out, not the developer's browser; the Host header names the name the page used.
 */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

/** Refuses (421 Misdirected Request) every request of `server` whose Host is not the loopback one. */
export function guardLoopbackHost(server: Server, port: () => number): void {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!isLoopbackHost(req.headers.host, port())) {
      res.writeHead(421, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Misdirected Request: use 127.0.0.1 or localhost' }));
      return;
    }
    for (const listener of listeners) listener.call(server, req, res);
  });
}
