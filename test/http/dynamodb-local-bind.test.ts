import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, inject, it } from 'vitest';

/** This machine's own addresses other than loopback (connecting to them never leaves the machine). */
const ownAddresses = (): string[] =>
  Object.entries(networkInterfaces()).flatMap(([name, addresses]) =>
    (addresses ?? [])
      .filter((address) => !address.internal)
      // A link-local IPv6 address is reachable only through its interface.
      .map((address) =>
        address.address.startsWith('fe80:') ? `${address.address}%${name}` : address.address,
      ),
  );

/** Whether a TCP connection to `host:port` is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

// docs/security.md, "Local mode": through DynamoDB Local anyone who reaches it can write a sign-in request (a
// known code) and take over a local account, so it must listen on loopback only.
describe('DynamoDB Local (as npm start and the tests run it)', () => {
  it("accepts connections on loopback and refuses them on the machine's other addresses", async () => {
    const port = Number(new URL(inject('dynamoEndpoint')).port);
    expect(await accepts('127.0.0.1', port)).toBe(true);

    const reachable = [];
    for (const address of ownAddresses()) {
      if (await accepts(address, port)) reachable.push(address);
    }
    expect(reachable).toEqual([]);
  });
});
