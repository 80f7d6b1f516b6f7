import { generateKeyPairSync, type KeyObject } from 'node:crypto';

let cached: { privateKey: KeyObject; publicKey: KeyObject; pem: string } | undefined;

/** One real RSA-2048 key pair per test worker, shared by its files (generation takes ~100 ms). */
export function testKeyPair() {
  if (!cached) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    cached = { privateKey, publicKey, pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
  }
  return cached;
}
