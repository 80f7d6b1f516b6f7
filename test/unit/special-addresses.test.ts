import { describe, expect, it } from 'vitest';
import { refusedAddress, type SpecialUse, specialUse } from '../../shared/net/special-addresses.ts';

describe('specialUse: IPv4', () => {
  it.each<[string, SpecialUse]>([
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.1', 'protocol assignments'],
    ['192.0.0.170', 'protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.31.196.1', 'reserved'],
    ['192.52.193.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.175.48.1', 'reserved'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['254.255.255.255', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is %s', (address, use) => {
    expect(specialUse(address)).toBe(use);
  });

  it.each([
    ['1.1.1.1'],
    ['8.8.8.8'],
    ['9.255.255.255'],
    ['11.0.0.0'],
    ['100.63.255.255'],
    ['100.128.0.0'],
    ['126.255.255.255'],
    ['128.0.0.0'],
    ['169.253.255.255'],
    ['169.255.0.0'],
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['192.0.1.1'],
    ['192.167.255.255'],
    ['192.169.0.0'],
    ['198.17.255.255'],
    ['198.20.0.0'],
    ['223.255.255.255'],
  ])('%s is public', (address) => {
    expect(specialUse(address)).toBeNull();
  });
});

describe('specialUse: IPv6', () => {
  it.each<[string, SpecialUse]>([
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::ffff:a9fe:a9fe', 'ipv4-mapped'],
    ['::127.0.0.1', 'ipv4-compatible'],
    ['::7f00:1', 'ipv4-compatible'],
    ['::8.8.8.8', 'ipv4-compatible'],
    ['::ffff:0:7f00:1', 'ipv4-translated'],
    ['64:ff9b::127.0.0.1', 'nat64'],
    ['64:ff9b::7f00:1', 'nat64'],
    ['64:ff9b::a9fe:a9fe', 'nat64'],
    ['64:ff9b::10.0.0.1', 'nat64'],
    ['64:ff9b:1::808:808', 'nat64'],
    ['64:ff9b:1:ffff::1', 'nat64'],
    ['2002:7f00:1::', '6to4'],
    ['2002:a9fe:a9fe::1', '6to4'],
    ['2002:c0a8:101::1', '6to4'],
    ['2002:0a00:0001:1:2:3:4:5', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::1', 'documentation'],
    ['2001:2::1', 'protocol assignments'],
    ['2001:10::1', 'protocol assignments'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['5f00::1', 'srv6'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
  ])('%s is %s', (address, use) => {
    expect(specialUse(address)).toBe(use);
  });

  it.each([
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:81b::200e'],
    ['64:ff9b::808:808'],
    ['64:ff9b::8.8.8.8'],
    ['2002:808:808::1'],
    ['2001:200::1'],
    ['fbff::1'],
    ['fe00::1'],
  ])('%s is public', (address) => {
    expect(specialUse(address)).toBeNull();
  });
});

describe('specialUse: what is not an address', () => {
  it.each([['localhost'], ['0x7f.1'], ['2130706433'], ['127.1'], [''], ['[::1]'], ['1.2.3.4.5']])(
    '%s is refused as not an IP address',
    (value) => {
      expect(specialUse(value)).toBe('not an IP address');
    },
  );
});

describe('refusedAddress', () => {
  it('allows plain loopback only when loopback is allowed', () => {
    expect(refusedAddress('127.0.0.1', false)).toBe('loopback');
    expect(refusedAddress('::1', false)).toBe('loopback');
    expect(refusedAddress('127.0.0.1', true)).toBeNull();
    expect(refusedAddress('127.3.2.1', true)).toBeNull();
    expect(refusedAddress('::1', true)).toBeNull();
  });

  it('still refuses every other special-use address when loopback is allowed', () => {
    for (const address of [
      '10.0.0.1',
      '169.254.169.254',
      '192.168.1.1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(refusedAddress(address, true), address).not.toBeNull();
    }
  });

  it('allows a public address either way', () => {
    expect(refusedAddress('93.184.215.14', false)).toBeNull();
    expect(refusedAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c', true)).toBeNull();
  });
});
