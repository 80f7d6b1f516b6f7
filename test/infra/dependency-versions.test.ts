import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundling } from '../../lib/bundling.ts';
import { FUNCTION_RUNTIME } from '../../lib/route-function.ts';

interface Manifest {
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}
interface Lock {
  readonly packages: Record<string, { readonly version?: string }>;
}

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lock;
const declared = { ...manifest.dependencies, ...manifest.devDependencies };

/**
 * The AWS SDK packages released together with the clients (one version line). `@aws-sdk/util-dynamodb`
 * has its own version line (3.996.x) and is not one of them, nor is the DynamoDB Streams client: it
 * is released less often (its newest is older than the others'), and only local mode reads the
 * stream with it (shared/local/stream-reader.ts), never a deployed function.
 */
const OWN_LINE = new Set(['@aws-sdk/client-dynamodb-streams']);
const clientLine = Object.keys(declared).filter(
  (name) => (name.startsWith('@aws-sdk/client-') || name === '@aws-sdk/lib-dynamodb') && !OWN_LINE.has(name),
);

describe('dependency versions', () => {
  it('pins every AWS SDK client and lib-dynamodb to one exact version, and the lock installs it', () => {
    expect(clientLine.length).toBeGreaterThan(1);
    const versions = new Set(clientLine.map((name) => declared[name]));
    expect([...versions]).toHaveLength(1);
    const [version] = versions;
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const name of clientLine) expect(lock.packages[`node_modules/${name}`]?.version, name).toBe(version);
  });

  it("types Node.js at the Lambda runtime's major", () => {
    const runtimeMajor = /^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)?.[1];
    expect(runtimeMajor).toBeDefined();
    expect(declared['@types/node']).toMatch(new RegExp(`^\\^${runtimeMajor}\\.`));
    expect(lock.packages['node_modules/@types/node']?.version?.split('.')[0]).toBe(runtimeMajor);
  });

  it("develops, tests and bundles on the Lambda runtime's Node major: the pinned node package, esbuild's target, this process", () => {
    const runtimeMajor = /^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)?.[1];
    // The registry's `node` package puts that Node first on the PATH of every npm script (docs/deploy.md).
    expect(declared.node).toMatch(new RegExp(`^${runtimeMajor}\\.\\d+\\.\\d+$`));
    expect(lock.packages['node_modules/node']?.version).toBe(declared.node);
    // .ci/run installs the same Node from its own lock file before `npm ci`.
    const ciNode = JSON.parse(readFileSync(new URL('../../.ci/node/package.json', import.meta.url), 'utf8'));
    const ciLock = JSON.parse(
      readFileSync(new URL('../../.ci/node/package-lock.json', import.meta.url), 'utf8'),
    );
    expect(ciNode.dependencies.node).toBe(declared.node);
    expect(ciLock.packages['node_modules/node']?.version).toBe(declared.node);
    expect(bundling.target).toBe(`node${runtimeMajor}`);
    expect(process.versions.node.split('.')[0]).toBe(runtimeMajor);
  });

  it('pins Biome exactly, and the lock lists its platform packages for macOS, Linux and Windows', () => {
    const version = declared['@biomejs/biome'];
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const platform of [
      'darwin-arm64',
      'darwin-x64',
      'linux-arm64',
      'linux-arm64-musl',
      'linux-x64',
      'linux-x64-musl',
      'win32-arm64',
      'win32-x64',
    ]) {
      expect(lock.packages[`node_modules/@biomejs/cli-${platform}`]?.version, platform).toBe(version);
    }
  });
});
