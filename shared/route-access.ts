/**
 * What a route's declared access (shared/route-spec.ts) and auth mode bring into its function besides
 * its grants: the adapters and handler-chain modules it holds. Each is imported by a subpath import
 * (package.json `imports`), so a route's bundle aliases those it does not declare to a stand-in
 * (lib/bundling.ts), and the composition root (shared/deps.ts) gives a port it does not declare a
 * stand-in that names the missing access (shared/undeclared.ts). test/unit/route-checklist.test.ts
 * fails while package.json's `imports` differ from `subpathImports()`.
 */
import type { AccessProfile, AuthMode } from './route-spec.ts';

/** The ports of the deps (shared/deps.ts `Deps`) an adapter fills. */
export type AdapterPort = 'db' | 'signer' | 'mailer' | 'codeHasher' | 'sealer';

/**
 * Every access property, in the order of a profile's key (lib/access-profile.ts), and the port it
 * opens. A record over every property: a new kind of access does not compile until it names its port.
 */
export const accessPorts = {
  table: 'db',
  sign: 'signer',
  publicKeys: 'signer',
  mail: 'mailer',
  codeKey: 'codeHasher',
  seal: 'sealer',
} as const satisfies Readonly<Record<Exclude<keyof AccessProfile, 'role'>, AdapterPort>>;

/** A module imported by its subpath import, and the file (from the repository root) it resolves to unbundled. */
interface Subpath {
  readonly specifier: `#${string}`;
  readonly module: `shared/${string}.ts`;
}

/** Each port's adapter module. */
export const adapters = {
  db: { specifier: '#adapters/dynamodb', module: 'shared/store/db.ts' },
  signer: { specifier: '#adapters/signing', module: 'shared/crypto/signers.ts' },
  mailer: { specifier: '#adapters/ses', module: 'shared/mail/ses-mailer.ts' },
  codeHasher: { specifier: '#adapters/code-key', module: 'shared/crypto/code-keys.ts' },
  sealer: { specifier: '#adapters/sealer', module: 'shared/crypto/secret-sealers.ts' },
} as const satisfies Readonly<Record<AdapterPort, Subpath>>;

/**
 * What a bundle holds instead of an adapter its route does not declare: every adapter's factory,
 * each failing if called (shared/deps.ts never calls it).
 */
export const absentAdapter = 'shared/adapters/absent.ts';

interface ChainModule extends Subpath {
  /** What a bundle whose route's auth mode does not use the module holds instead. */
  readonly standIn: Subpath['module'];
  readonly usedBy: (auth: AuthMode) => boolean;
}

/** The handler chain's modules only some auth modes use (shared/http/handler.ts). */
export const chainModules: readonly ChainModule[] = [
  {
    // A route that reads no credential holds no session or key lookup (nor the store behind it).
    specifier: '#callers',
    module: 'shared/sessions/caller.ts',
    standIn: 'shared/adapters/no-credentials.ts',
    usedBy: (auth) => auth !== 'none',
  },
  {
    // Only management routes (auth `manage`) consult the permission matrix and read their targets.
    specifier: '#authorize',
    module: 'shared/tenancy/authorize.ts',
    standIn: 'shared/adapters/no-permission.ts',
    usedBy: (auth) => auth === 'manage',
  },
];

/** Every subpath import, as package.json `imports` must hold them. */
export function subpathImports(): Record<string, string> {
  return Object.fromEntries(
    [...Object.values(adapters), ...chainModules].map(({ specifier, module }) => [specifier, `./${module}`]),
  );
}

const propertiesOf = (port: AdapterPort) =>
  (Object.keys(accessPorts) as Array<keyof typeof accessPorts>).filter((name) => accessPorts[name] === port);

/** Whether `access` opens `port`: a property that opens it is set (`false` is the same as absent). */
export function declares(access: AccessProfile, port: AdapterPort): boolean {
  return propertiesOf(port).some((name) => access[name] !== undefined && access[name] !== false);
}

/** The access properties that open `port`, as a refusal names them: `` `sign` or `publicKeys` ``. */
export function accessNamed(port: AdapterPort): string {
  return propertiesOf(port)
    .map((name) => `\`${name}\``)
    .join(' or ');
}
