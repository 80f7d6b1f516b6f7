/**
 * The browser a social sign-in belongs to (login CSRF, RFC 6749 §10.12 and RFC 9700 §4.7): the
 * start gives the browser a random binding in an HttpOnly cookie on the service host and keeps only
 * its hash in the state; the callback goes on only when the browser that arrives holds it. Without
 * it, someone could start a sign-in with their own provider account, stop before the callback, and
 * send that callback URL to a victim, whose browser would then return to the application signed in
 * to the attacker's account.
 *
 * One binding per browser, not per sign-in, so two sign-ins started in two tabs both work; each
 * start keeps it another 10 minutes. `SameSite=Lax`: the callback is a top-level GET from the
 * provider, which Lax cookies go with.
 */
import type { Config } from '../config.ts';
import { sameDigest, sha256Hex } from '../crypto/hash.ts';
import type { Random } from '../random.ts';
import { newSecret } from '../random.ts';
import { hostCookieName, readCookies, setCookie } from '../sessions/cookies.ts';

const BINDING_MAX_AGE_SECONDS = 600;
const BINDING = /^[A-Za-z0-9_-]{43}$/;

const bindingCookieName = (config: Config) => hostCookieName(config, 'social_binding');

/** The browser's binding (kept, or a new one) and the cookie that keeps it. */
export function bindBrowser(
  config: Config,
  random: Random,
  cookies: readonly string[],
): { hash: string; cookie: string } {
  const held = readCookies(cookies, bindingCookieName(config)).find((value) => BINDING.test(value));
  const binding = held ?? newSecret(random);
  return {
    hash: sha256Hex(binding),
    cookie: setCookie(bindingCookieName(config), binding, BINDING_MAX_AGE_SECONDS),
  };
}

/** Whether one of the browser's binding cookies is the one the state was started with. */
export function isBoundBrowser(config: Config, cookies: readonly string[], hash: string): boolean {
  return readCookies(cookies, bindingCookieName(config)).some((value) => sameDigest(sha256Hex(value), hash));
}
