import { describe, expect, it } from 'vitest';
import { isReservedTestDomain, isSyntheticAddress } from '../../shared/tenancy/test-domains.ts';

describe('isReservedTestDomain: names under the test TLDs of RFC 2606 / RFC 6761 only', () => {
  it.each(['synthetic.test', 'bots.acme.test', 'qa.example', 'x.invalid', 'e2e.localhost', 'Bots.TEST'])(
    'takes %s',
    (domain) => {
      expect(isReservedTestDomain(domain)).toBe(true);
    },
  );

  it.each([
    'gmail.com',
    'example.com',
    'bots.example.com',
    'test',
    'acme.testing',
    'test.com',
    'a..test',
    '',
  ])('refuses %j', (domain) => {
    expect(isReservedTestDomain(domain)).toBe(false);
  });
});

describe('isSyntheticAddress', () => {
  it('is an address under the configured reserved domain', () => {
    expect(isSyntheticAddress('bots.test', 'a@bots.test')).toBe(true);
    expect(isSyntheticAddress('bots.test', 'a@x.bots.test')).toBe(false);
    expect(isSyntheticAddress(null, 'a@bots.test')).toBe(false);
  });

  it('never holds under a stored domain that is no reserved test name', () => {
    expect(isSyntheticAddress('gmail.com', 'victim@gmail.com')).toBe(false);
  });
});
