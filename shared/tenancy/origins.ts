/**
 * Which `Origin` values are an application's official origin (docs/api.md, "Origin learning").
 * Every pattern of a disposable origin lives here, each with an example that
 * test/unit/origins.test.ts and test/http/origin-learning.test.ts send: preview deployments,
 * development environments, tunnels, loopback and private addresses, and the names reserved for
 * testing or private use. A disposable origin still authenticates normally; it is only never
 * recorded.
 */

/** What a pattern sees of an origin: its lower-case host without a trailing dot or IPv6 brackets. */
interface Host {
  readonly name: string;
  readonly ipv4: readonly number[] | null;
  readonly ipv6: readonly number[] | null;
}

export interface DisposablePattern {
  /** How the pattern is written in docs/api.md. */
  readonly pattern: string;
  readonly kind:
    | 'preview'
    | 'development'
    | 'tunnel'
    | 'loopback'
    | 'private'
    | 'reserved name'
    | 'reserved address';
  /** An origin it refuses (the tests send each one). */
  readonly example: string;
  readonly matches: (host: Host) => boolean;
}

const under = (suffix: string) => (host: Host) => host.name === suffix || host.name.endsWith(`.${suffix}`);
const firstLabel = (host: Host) => host.name.split('.')[0] ?? '';

/** IPv4 `base/bits`. */
const inV4 = (base: readonly number[], bits: number) => (host: Host) => {
  if (!host.ipv4) return false;
  const value = (octets: readonly number[]) => octets.reduce((sum, octet) => ((sum << 8) | octet) >>> 0, 0);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (value(host.ipv4) & mask) >>> 0 === (value(base) & mask) >>> 0;
};

/** IPv6 `prefix/bits` over the address's 16-bit groups. */
const inV6 = (prefix: readonly number[], bits: number) => (host: Host) => {
  if (!host.ipv6) return false;
  for (let bit = 0; bit < bits; bit++) {
    const group = Math.floor(bit / 16);
    const shift = 15 - (bit % 16);
    if ((((host.ipv6[group] ?? 0) >> shift) & 1) !== (((prefix[group] ?? 0) >> shift) & 1)) return false;
  }
  return true;
};

const suffixes = (
  kind: DisposablePattern['kind'],
  list: ReadonlyArray<readonly [suffix: string, example: string]>,
): DisposablePattern[] =>
  list.map(([suffix, example]) => ({ pattern: `*.${suffix}`, kind, example, matches: under(suffix) }));

export const disposablePatterns: readonly DisposablePattern[] = [
  // Preview deployments: a new host per branch or pull request.
  ...suffixes('preview', [
    ['vercel.app', 'https://acme-git-feature-acme.vercel.app'],
    ['now.sh', 'https://acme-abc123.now.sh'],
    ['netlify.app', 'https://deploy-preview-42--acme.netlify.app'],
    ['netlify.live', 'https://acme.netlify.live'],
    ['pages.dev', 'https://feature.acme.pages.dev'],
  ]),
  {
    pattern: 'a first label with `--` under web.app or firebaseapp.com (Firebase preview channels)',
    kind: 'preview',
    example: 'https://acme--pr42-abcdef.web.app',
    matches: (host) =>
      (under('web.app')(host) || under('firebaseapp.com')(host)) && firstLabel(host).includes('--'),
  },
  {
    pattern: '`pr-<n>.` under amplifyapp.com (Amplify pull-request previews)',
    kind: 'preview',
    example: 'https://pr-42.d1a2b3c4.amplifyapp.com',
    matches: (host) => under('amplifyapp.com')(host) && /^pr-\d+$/.test(firstLabel(host)),
  },
  // Production often lives on onrender.com, up.railway.app and fly.dev: only their previews are disposable.
  {
    pattern: '`<service>-pr-<n>.onrender.com` (Render pull-request previews)',
    kind: 'preview',
    example: 'https://acme-pr-42.onrender.com',
    matches: (host) => under('onrender.com')(host) && /-pr-\d+$/.test(firstLabel(host)),
  },
  {
    pattern: '`<service>-pr-<n>.up.railway.app` (Railway pull-request environments)',
    kind: 'preview',
    example: 'https://acme-pr-42.up.railway.app',
    matches: (host) => under('up.railway.app')(host) && /-pr-\d+$/.test(firstLabel(host)),
  },
  {
    pattern: '`pr-<n>-….fly.dev` (Fly.io review apps)',
    kind: 'preview',
    example: 'https://pr-42-acme-web.fly.dev',
    matches: (host) => under('fly.dev')(host) && /^pr-\d+-/.test(firstLabel(host)),
  },
  {
    pattern: '`<app>-pr-<n>.herokuapp.com` (Heroku review apps)',
    kind: 'preview',
    example: 'https://acme-pr-42.herokuapp.com',
    // Heroku now appends a random suffix to new app names: `acme-pr-42-1a2b3c4d5e6f`.
    matches: (host) => under('herokuapp.com')(host) && /-pr-\d+(-[0-9a-f]{12})?$/.test(firstLabel(host)),
  },
  {
    pattern: '`<site>-<n>.<region>.azurestaticapps.net` (Azure Static Web Apps pull-request previews)',
    kind: 'preview',
    example: 'https://gentle-sea-0a1b2c3d4-42.westus2.azurestaticapps.net',
    // Production is `<site>.azurestaticapps.net` or `<site>.<partition>.azurestaticapps.net` (a
    // number): only a preview has a region label after a first label ending in `-<n>`.
    matches: (host) => {
      const [first = '', region = ''] = host.name.split('.');
      return (
        under('azurestaticapps.net')(host) &&
        host.name.split('.').length >= 4 &&
        /-\d+$/.test(first) &&
        /^[a-z][a-z0-9]*$/.test(region)
      );
    },
  },
  // Hosted development environments.
  ...suffixes('development', [
    ['app.github.dev', 'https://octo-space-x7g-3000.app.github.dev'],
    ['github.dev', 'https://octo-space-x7g.github.dev'],
    ['githubpreview.dev', 'https://octo-3000.githubpreview.dev'],
    ['gitpod.io', 'https://3000-acme-repo-abc.ws-eu110.gitpod.io'],
    ['csb.app', 'https://x7g3k-3000.csb.app'],
    ['codesandbox.io', 'https://x7g3k.codesandbox.io'],
    ['webcontainer.io', 'https://acme--3000.local.webcontainer.io'],
    ['webcontainer-api.io', 'https://acme--3000--abc.local-credentialless.webcontainer-api.io'],
    ['stackblitz.io', 'https://acme.stackblitz.io'],
    ['replit.dev', 'https://abc-00-xyz.riker.replit.dev'],
    ['repl.co', 'https://acme.octo.repl.co'],
  ]),
  // Tunnels to a developer's machine.
  ...suffixes('tunnel', [
    ['ngrok.io', 'https://abc123.ngrok.io'],
    ['ngrok-free.app', 'https://abc123.ngrok-free.app'],
    ['ngrok.app', 'https://abc123.ngrok.app'],
    ['ngrok-free.dev', 'https://abc123.ngrok-free.dev'],
    ['ngrok.dev', 'https://acme.ngrok.dev'],
    ['loca.lt', 'https://brave-cat-42.loca.lt'],
    ['localtunnel.me', 'https://acme.localtunnel.me'],
    ['trycloudflare.com', 'https://quick-brown-fox.trycloudflare.com'],
    ['serveo.net', 'https://acme.serveo.net'],
    ['serveousercontent.com', 'https://abc.serveousercontent.com'],
    ['localhost.run', 'https://abc.localhost.run'],
    ['lhr.life', 'https://abc123.lhr.life'],
    ['lhr.rocks', 'https://abc123.lhr.rocks'],
    ['devtunnels.ms', 'https://abc-3000.euw.devtunnels.ms'],
    ['tunnelmole.net', 'https://abc.tunnelmole.net'],
    ['pinggy.link', 'https://abc.a.pinggy.link'],
    ['nip.io', 'https://10.0.0.1.nip.io'],
    ['sslip.io', 'https://192-168-1-2.sslip.io'],
    // Tailscale: MagicDNS names of a tailnet's machines, and Funnel's tunnels to them.
    ['ts.net', 'https://devbox.tail1a2b3c.ts.net'],
  ]),
  // Names that never reach the public internet (RFC 2606, RFC 6761, RFC 6762, RFC 8375, ICANN 2024).
  {
    pattern: 'localhost',
    kind: 'loopback',
    example: 'https://localhost:3000',
    matches: (host) => host.name === 'localhost',
  },
  ...suffixes('reserved name', [
    ['localhost', 'https://app.localhost'],
    ['local', 'https://acme.local'],
    ['test', 'https://acme.test'],
    ['example', 'https://acme.example'],
    ['invalid', 'https://acme.invalid'],
    ['internal', 'https://acme.internal'],
    ['home.arpa', 'https://nas.home.arpa'],
    ['example.com', 'https://app.example.com'],
    ['example.net', 'https://example.net'],
    ['example.org', 'https://www.example.org'],
    // RFC 7686 (Tor onion services) and RFC 9476 (names outside the DNS).
    ['onion', 'https://acme2abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstu.onion'],
    ['alt', 'https://acme.alt'],
  ]),
  {
    pattern: 'a single-label host (no dot)',
    kind: 'private',
    example: 'https://intranet',
    matches: (host) => !host.ipv4 && !host.ipv6 && !host.name.includes('.'),
  },
  // Loopback and private addresses.
  { pattern: '0.0.0.0/8', kind: 'private', example: 'https://0.0.0.0', matches: inV4([0, 0, 0, 0], 8) },
  {
    pattern: '127.0.0.0/8',
    kind: 'loopback',
    example: 'https://127.0.0.1:8443',
    matches: inV4([127, 0, 0, 0], 8),
  },
  { pattern: '10.0.0.0/8', kind: 'private', example: 'https://10.1.2.3', matches: inV4([10, 0, 0, 0], 8) },
  {
    pattern: '172.16.0.0/12',
    kind: 'private',
    example: 'https://172.31.255.1',
    matches: inV4([172, 16, 0, 0], 12),
  },
  {
    pattern: '192.168.0.0/16',
    kind: 'private',
    example: 'https://192.168.1.20',
    matches: inV4([192, 168, 0, 0], 16),
  },
  {
    pattern: '169.254.0.0/16',
    kind: 'private',
    example: 'https://169.254.169.254',
    matches: inV4([169, 254, 0, 0], 16),
  },
  {
    pattern: '100.64.0.0/10',
    kind: 'private',
    example: 'https://100.100.1.1',
    matches: inV4([100, 64, 0, 0], 10),
  },
  // Addresses reserved for documentation (RFC 5737), benchmarking (RFC 2544), multicast (RFC 5771)
  // and future use (RFC 1112, with the broadcast address): no public site is served from them.
  {
    pattern: '192.0.2.0/24 (documentation)',
    kind: 'reserved address',
    example: 'https://192.0.2.10',
    matches: inV4([192, 0, 2, 0], 24),
  },
  {
    pattern: '198.51.100.0/24 (documentation)',
    kind: 'reserved address',
    example: 'https://198.51.100.7',
    matches: inV4([198, 51, 100, 0], 24),
  },
  {
    pattern: '203.0.113.0/24 (documentation)',
    kind: 'reserved address',
    example: 'https://203.0.113.5',
    matches: inV4([203, 0, 113, 0], 24),
  },
  {
    pattern: '198.18.0.0/15 (benchmarking)',
    kind: 'reserved address',
    example: 'https://198.19.0.1',
    matches: inV4([198, 18, 0, 0], 15),
  },
  {
    pattern: '224.0.0.0/4 (multicast)',
    kind: 'reserved address',
    example: 'https://239.1.2.3',
    matches: inV4([224, 0, 0, 0], 4),
  },
  {
    pattern: '240.0.0.0/4 (reserved)',
    kind: 'reserved address',
    example: 'https://255.255.255.255',
    matches: inV4([240, 0, 0, 0], 4),
  },
  { pattern: '::/128', kind: 'private', example: 'https://[::]', matches: inV6([], 128) },
  {
    pattern: '::1/128',
    kind: 'loopback',
    example: 'https://[::1]:8443',
    matches: inV6([0, 0, 0, 0, 0, 0, 0, 1], 128),
  },
  { pattern: 'fc00::/7', kind: 'private', example: 'https://[fd12:3456::1]', matches: inV6([0xfc00], 7) },
  { pattern: 'fe80::/10', kind: 'private', example: 'https://[fe80::1]', matches: inV6([0xfe80], 10) },
  {
    pattern: 'fec0::/10 (site-local)',
    kind: 'private',
    example: 'https://[fec0::1]',
    matches: inV6([0xfec0], 10),
  },
  {
    pattern: '::ffff:0:0/96 (IPv4-mapped)',
    kind: 'private',
    example: 'https://[::ffff:8.8.8.8]',
    matches: inV6([0, 0, 0, 0, 0, 0xffff], 96),
  },
  {
    pattern: '2001:db8::/32 (documentation)',
    kind: 'reserved address',
    example: 'https://[2001:db8::1]',
    matches: inV6([0x2001, 0x0db8], 32),
  },
  {
    // RFC 6052: an IPv4 address as the local network's NAT64 gateway writes it, never a site's own.
    pattern: '64:ff9b::/96 (NAT64)',
    kind: 'reserved address',
    example: 'https://[64:ff9b::c000:201]',
    matches: inV6([0x64, 0xff9b, 0, 0, 0, 0], 96),
  },
];

/** Why an `Origin` header is not recorded: a pattern above, or a value that is no https origin. */
export type NotRecorded =
  | { reason: 'disposable'; pattern: DisposablePattern }
  | { reason: 'not an https origin' };

function parseIpv4(name: string): number[] | null {
  const parts = name.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** The eight groups of an IPv6 literal as the WHATWG URL parser writes it (compressed, hex, no IPv4 tail). */
function parseIpv6(name: string): number[] | null {
  if (!name.includes(':')) return null;
  const [head = '', tail] = name.split('::');
  const groups = (text: string) =>
    text === '' ? [] : text.split(':').map((group) => Number.parseInt(group, 16));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return all.length === 8 && all.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? all
    : null;
}

function hostOf(url: URL): Host {
  const name = url.hostname.toLowerCase().replace(/\.$/, '');
  const bracketed = name.startsWith('[') && name.endsWith(']');
  return {
    name,
    ipv4: bracketed ? null : parseIpv4(name),
    ipv6: bracketed ? parseIpv6(name.slice(1, -1)) : null,
  };
}

/**
 * `text` as an https origin (RFC 6454 §7: scheme://host[:port], no path, query, fragment or user),
 * parsed; null for anything else. Its `origin` is the serialized form (lower case, default port left out).
 */
export function httpsOrigin(text: string): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const afterScheme = text.slice(url.protocol.length + 2);
  if (url.protocol !== 'https:' || !text.startsWith('https://') || /[/?#@\\]/.test(afterScheme)) return null;
  return url;
}

/**
 * The origin to record as the application's official origin, or why not. Only an https origin is
 * recorded: the configuration holds https origins only, so a learned one can be written back as
 * it is read. `null` (sandboxed pages, file URLs, privacy redirects) is no origin at all.
 */
export function officialOrigin(header: string | undefined): { origin: string } | NotRecorded {
  const url = header === undefined ? null : httpsOrigin(header);
  if (!url) return { reason: 'not an https origin' };
  const host = hostOf(url);
  const pattern = disposablePatterns.find((candidate) => candidate.matches(host));
  return pattern ? { reason: 'disposable', pattern } : { origin: url.origin };
}
