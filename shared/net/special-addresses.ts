/**
 * Special-use IP addresses (RFC 6890 and the IANA special-purpose registries that succeed it): a
 * client ID metadata document is never fetched from one, so a `client_id` cannot make the server
 * reach its own host, its VPC, the instance metadata service or anything else not on the Internet.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Why an address is not a public Internet address. */
export type SpecialUse =
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'link-local'
  | 'shared (CGNAT)'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'benchmarking'
  | 'documentation'
  | 'protocol assignments'
  | 'ipv4-mapped'
  | 'ipv4-compatible'
  | 'ipv4-translated'
  | 'nat64'
  | '6to4'
  | 'teredo'
  | 'discard-only'
  | 'srv6'
  | 'not an IP address';

type Range = readonly [cidr: string, use: SpecialUse];

// Order matters where ranges nest: the first match names the use.
const IPV4: readonly Range[] = [
  ['255.255.255.255/32', 'broadcast'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  // RFC 7535 AS112-v4, RFC 7450 AMT, RFC 7526 6to4 relay anycast, RFC 7534 AS112 delegation.
  ['192.31.196.0/24', 'reserved'],
  ['192.52.193.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['192.175.48.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

const IPV6: readonly Range[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'ipv4-mapped'],
  // RFC 4291 §2.5.5.1: deprecated, but a stack may still route it to the embedded IPv4 address.
  ['::/96', 'ipv4-compatible'],
  ['::ffff:0:0:0/96', 'ipv4-translated'],
  // RFC 8215: local-use NAT64, not globally reachable whatever it embeds.
  ['64:ff9b:1::/48', 'nat64'],
  ['100::/64', 'discard-only'],
  ['2001::/32', 'teredo'],
  ['2001:db8::/32', 'documentation'],
  ['2001::/23', 'protocol assignments'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'srv6'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link-local'],
  // RFC 3879: deprecated site-local, still routed inside some networks.
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
];

function blockList(cidr: string, family: 'ipv4' | 'ipv6'): BlockList {
  const [network = '', prefix = ''] = cidr.split('/');
  const list = new BlockList();
  list.addSubnet(network, Number(prefix), family);
  return list;
}

const ipv4Ranges = IPV4.map(([cidr, use]) => ({ list: blockList(cidr, 'ipv4'), use }));
const ipv6Ranges = IPV6.map(([cidr, use]) => ({ list: blockList(cidr, 'ipv6'), use }));

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included). */
function groupsOf(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address a translation prefix routes to: NAT64 (RFC 6052 well-known prefix) and 6to4
 * (RFC 3056). Their other addresses are public, so only the embedded address decides.
 */
function embeddedIpv4(address: string): { ipv4: string; use: SpecialUse } | null {
  const groups = groupsOf(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return { ipv4: dotted(g6, g7), use: 'nat64' };
  }
  if (g0 === 0x2002) return { ipv4: dotted(g1, g2), use: '6to4' };
  return null;
}

/** How `address` (an IPv4 or IPv6 literal, no brackets) is special, or null for a public address. */
export function specialUse(address: string): SpecialUse | null {
  const bare = address.split('%')[0] ?? '';
  if (isIPv4(bare)) return ipv4Ranges.find(({ list }) => list.check(bare, 'ipv4'))?.use ?? null;
  if (!isIPv6(bare)) return 'not an IP address';
  const range = ipv6Ranges.find(({ list }) => list.check(bare, 'ipv6'));
  if (range) return range.use;
  const embedded = embeddedIpv4(bare);
  if (embedded && specialUse(embedded.ipv4) !== null) return embedded.use;
  return null;
}

/**
 * Why the metadata fetch may not connect to `address`, or null if it may. Loopback is allowed only
 * when `allowLoopback` (local mode and tests), and then only plain loopback: never a private range.
 */
export function refusedAddress(address: string, allowLoopback: boolean): SpecialUse | null {
  const use = specialUse(address);
  return use === 'loopback' && allowLoopback ? null : use;
}
