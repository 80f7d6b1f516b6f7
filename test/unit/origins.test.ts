import { describe, expect, it } from 'vitest';
import { disposablePatterns, officialOrigin } from '../../shared/tenancy/origins.ts';

/** One case per pattern of shared/tenancy/origins.ts, written out here rather than read from it. */
const disposable: ReadonlyArray<readonly [origin: string, pattern: string]> = [
  ['https://acme-git-main-team.vercel.app', '*.vercel.app'],
  ['https://acme-x1.now.sh', '*.now.sh'],
  ['https://deploy-preview-7--acme.netlify.app', '*.netlify.app'],
  ['https://live.netlify.live', '*.netlify.live'],
  ['https://0a1b2c3d.acme.pages.dev', '*.pages.dev'],
  [
    'https://acme--preview-1a2b3c.web.app',
    'a first label with `--` under web.app or firebaseapp.com (Firebase preview channels)',
  ],
  ['https://pr-7.d3abc.amplifyapp.com', '`pr-<n>.` under amplifyapp.com (Amplify pull-request previews)'],
  ['https://shop-pr-7.onrender.com', '`<service>-pr-<n>.onrender.com` (Render pull-request previews)'],
  ['https://shop-pr-7.herokuapp.com', '`<app>-pr-<n>.herokuapp.com` (Heroku review apps)'],
  ['https://shop-pr-7-0a1b2c3d4e5f.herokuapp.com', '`<app>-pr-<n>.herokuapp.com` (Heroku review apps)'],
  [
    'https://brave-river-0f1e2d3c4-7.eastus2.azurestaticapps.net',
    '`<site>-<n>.<region>.azurestaticapps.net` (Azure Static Web Apps pull-request previews)',
  ],
  [
    'https://brave-river-0f1e2d3c4-7.eastus2.3.azurestaticapps.net',
    '`<site>-<n>.<region>.azurestaticapps.net` (Azure Static Web Apps pull-request previews)',
  ],
  [
    'https://shop-pr-7.up.railway.app',
    '`<service>-pr-<n>.up.railway.app` (Railway pull-request environments)',
  ],
  ['https://pr-7-team-shop.fly.dev', '`pr-<n>-….fly.dev` (Fly.io review apps)'],
  ['https://studious-space-8080.app.github.dev', '*.app.github.dev'],
  ['https://studious-space.github.dev', '*.github.dev'],
  ['https://octo-8080.githubpreview.dev', '*.githubpreview.dev'],
  ['https://8080-team-repo-1.ws-us99.gitpod.io', '*.gitpod.io'],
  ['https://abc12-5173.csb.app', '*.csb.app'],
  ['https://abc12.codesandbox.io', '*.codesandbox.io'],
  ['https://vite--5173.local.webcontainer.io', '*.webcontainer.io'],
  ['https://vite--5173--x.local-credentialless.webcontainer-api.io', '*.webcontainer-api.io'],
  ['https://vite.stackblitz.io', '*.stackblitz.io'],
  ['https://a-1-b.kirk.replit.dev', '*.replit.dev'],
  ['https://shop.team.repl.co', '*.repl.co'],
  ['https://1a2b3c.ngrok.io', '*.ngrok.io'],
  ['https://1a2b3c.ngrok-free.app', '*.ngrok-free.app'],
  ['https://1a2b3c.ngrok.app', '*.ngrok.app'],
  ['https://1a2b3c.ngrok-free.dev', '*.ngrok-free.dev'],
  ['https://shop.ngrok.dev', '*.ngrok.dev'],
  ['https://tidy-owl-7.loca.lt', '*.loca.lt'],
  ['https://shop.localtunnel.me', '*.localtunnel.me'],
  ['https://some-words-here.trycloudflare.com', '*.trycloudflare.com'],
  ['https://shop.serveo.net', '*.serveo.net'],
  ['https://1a2b.serveousercontent.com', '*.serveousercontent.com'],
  ['https://1a2b.localhost.run', '*.localhost.run'],
  ['https://1a2b3c.lhr.life', '*.lhr.life'],
  ['https://1a2b3c.lhr.rocks', '*.lhr.rocks'],
  ['https://x1-5173.usw2.devtunnels.ms', '*.devtunnels.ms'],
  ['https://x1.tunnelmole.net', '*.tunnelmole.net'],
  ['https://x1.a.free.pinggy.link', '*.pinggy.link'],
  ['https://app.127.0.0.1.nip.io', '*.nip.io'],
  ['https://10-0-0-1.sslip.io', '*.sslip.io'],
  ['https://laptop.tailnet-1a2b.ts.net', '*.ts.net'],
  ['https://localhost', 'localhost'],
  ['https://shop.localhost:5173', '*.localhost'],
  ['https://printer.local', '*.local'],
  ['https://shop.test', '*.test'],
  ['https://shop.example', '*.example'],
  ['https://shop.invalid', '*.invalid'],
  ['https://wiki.corp.internal', '*.internal'],
  ['https://router.home.arpa', '*.home.arpa'],
  ['https://example.com', '*.example.com'],
  ['https://docs.example.net', '*.example.net'],
  ['https://example.org:8443', '*.example.org'],
  ['https://shopabcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstuvw.onion', '*.onion'],
  ['https://shop.alt', '*.alt'],
  ['https://devbox', 'a single-label host (no dot)'],
  ['https://0.1.2.3', '0.0.0.0/8'],
  ['https://127.255.0.9', '127.0.0.0/8'],
  ['https://10.255.255.255', '10.0.0.0/8'],
  ['https://172.16.0.1', '172.16.0.0/12'],
  ['https://192.168.0.1:3000', '192.168.0.0/16'],
  ['https://169.254.1.1', '169.254.0.0/16'],
  ['https://100.127.255.254', '100.64.0.0/10'],
  ['https://192.0.2.255', '192.0.2.0/24 (documentation)'],
  ['https://198.51.100.1', '198.51.100.0/24 (documentation)'],
  ['https://203.0.113.254', '203.0.113.0/24 (documentation)'],
  ['https://198.18.0.1', '198.18.0.0/15 (benchmarking)'],
  ['https://198.19.255.254', '198.18.0.0/15 (benchmarking)'],
  ['https://224.0.0.1', '224.0.0.0/4 (multicast)'],
  ['https://239.255.255.250', '224.0.0.0/4 (multicast)'],
  ['https://240.0.0.1', '240.0.0.0/4 (reserved)'],
  ['https://255.255.255.255', '240.0.0.0/4 (reserved)'],
  ['https://[0:0::0]', '::/128'],
  ['https://[0:0:0:0:0:0:0:1]', '::1/128'],
  ['https://[fc00::abcd]', 'fc00::/7'],
  ['https://[febf::1]', 'fe80::/10'],
  ['https://[feff::1]', 'fec0::/10 (site-local)'],
  ['https://[::ffff:10.0.0.1]', '::ffff:0:0/96 (IPv4-mapped)'],
  ['https://[2001:db8:ffff::1]', '2001:db8::/32 (documentation)'],
  ['https://[64:ff9b::8.8.8.8]', '64:ff9b::/96 (NAT64)'],
];

describe('officialOrigin: disposable origins are never recorded', () => {
  it.each(disposable)('refuses %s (%s)', (origin, pattern) => {
    expect(officialOrigin(origin)).toMatchObject({ reason: 'disposable', pattern: { pattern } });
  });

  it('has a case above for every pattern, and each pattern refuses its own example', () => {
    const covered = new Set(disposable.map(([, pattern]) => pattern));
    for (const candidate of disposablePatterns) {
      expect(covered, candidate.pattern).toContain(candidate.pattern);
      expect(officialOrigin(candidate.example)).toMatchObject({ pattern: { pattern: candidate.pattern } });
    }
  });

  it('matches labels, not text: a look-alike under another domain is not disposable', () => {
    for (const origin of [
      'https://vercel.app.acme.com',
      'https://myngrok.io',
      'https://notlocalhost.com',
      'https://acme.onion.acme.com',
      'https://hosts.net',
    ]) {
      expect(officialOrigin(origin), origin).toEqual({ origin });
    }
  });

  it.each([
    ['https://shop.localhost.', '*.localhost'],
    ['https://LOCALHOST', 'localhost'],
    ['https://[::ffff:127.0.0.1]', '::ffff:0:0/96 (IPv4-mapped)'],
  ])('reads %s in its normal form (trailing dot, case, IPv4 tail)', (origin, pattern) => {
    expect(officialOrigin(origin)).toMatchObject({ pattern: { pattern } });
  });
});

describe('officialOrigin: what is recorded', () => {
  it.each([
    ['https://notes.acme.com', 'https://notes.acme.com'],
    ['https://Notes.Acme.com:443', 'https://notes.acme.com'],
    ['https://notes.acme.com:8443', 'https://notes.acme.com:8443'],
    ['https://acme.onrender.com', 'https://acme.onrender.com'],
    ['https://acme.fly.dev', 'https://acme.fly.dev'],
    ['https://acme.web.app', 'https://acme.web.app'],
    ['https://172.32.0.1', 'https://172.32.0.1'],
    ['https://100.128.0.1', 'https://100.128.0.1'],
    ['https://[2606:4700:4700::1111]', 'https://[2606:4700:4700::1111]'],
    ['https://192.0.3.1', 'https://192.0.3.1'],
    ['https://198.20.0.1', 'https://198.20.0.1'],
    ['https://223.255.255.255', 'https://223.255.255.255'],
    ['https://[2001:db9::1]', 'https://[2001:db9::1]'],
    ['https://[64:ff9b:1::1]', 'https://[64:ff9b:1::1]'],
    // Production hosts of the platforms whose previews are disposable.
    ['https://acme.herokuapp.com', 'https://acme.herokuapp.com'],
    ['https://acme-pr-tools.herokuapp.com', 'https://acme-pr-tools.herokuapp.com'],
    ['https://gentle-sea-012345678.azurestaticapps.net', 'https://gentle-sea-012345678.azurestaticapps.net'],
    [
      'https://gentle-sea-012345678.3.azurestaticapps.net',
      'https://gentle-sea-012345678.3.azurestaticapps.net',
    ],
    ['https://xn--bcher-kva.de', 'https://xn--bcher-kva.de'],
  ])('records %s as %s', (header, origin) => {
    expect(officialOrigin(header)).toEqual({ origin });
  });

  it.each([
    'null',
    '',
    'http://notes.acme.com',
    'chrome-extension://abcdefghijklmnop',
    'file://',
    'https://notes.acme.com/',
    'https://notes.acme.com/app',
    'https://notes.acme.com?x',
    'https://user@notes.acme.com',
    'notes.acme.com',
  ])('records nothing for %j: it is no https origin', (header) => {
    expect(officialOrigin(header)).toEqual({ reason: 'not an https origin' });
  });

  it('records nothing without an Origin header', () => {
    expect(officialOrigin(undefined)).toEqual({ reason: 'not an https origin' });
  });
});
