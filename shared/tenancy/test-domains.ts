/**
 * The names a synthetic email domain may take (`authentication.syntheticEmailDomain`): only names
 * under the top-level domains reserved for testing, RFC 2606 §2 and RFC 6761 §6 (`.test`,
 * `.example`, `.invalid`, `.localhost`). No real person can hold a mailbox there, so showing the
 * pending code of such an address to the secret key (`POST /auth/code/peek`) signs in no one real.
 * Any other domain (`gmail.com`) would let a key read a real person's code and hold a session as them.
 */
const RESERVED_TEST_TLDS = new Set(['test', 'example', 'invalid', 'localhost']);

/** Whether `domain` is a name under a reserved test TLD (the TLD alone is not a domain of addresses). */
export function isReservedTestDomain(domain: string): boolean {
  const labels = domain.toLowerCase().split('.');
  const tld = labels.at(-1) ?? '';
  return labels.length >= 2 && labels.every((label) => label !== '') && RESERVED_TEST_TLDS.has(tld);
}

/**
 * Whether `email` is a synthetic (test) address of an application configured with `domain`. The
 * domain is checked again here, not only when it is configured: an item stored before the check
 * (or by a fixture) must not turn a real address into a synthetic one.
 */
export function isSyntheticAddress(domain: string | null, email: string): boolean {
  return (
    domain !== null &&
    isReservedTestDomain(domain) &&
    email.toLowerCase().endsWith(`@${domain.toLowerCase()}`)
  );
}
