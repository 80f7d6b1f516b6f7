import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSdk, type SdkBuild } from '../../scripts/build-sdk.ts';

const repoRoot = join(import.meta.dirname, '..', '..');
/** The SDK is at most 10 KB gzipped (docs/sdk.md). */
const BUDGET_GZIP_BYTES = 10 * 1024;

let dir: string;
let built: SdkBuild;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doorcode-sdk-'));
  built = await buildSdk(join(dir, 'dist'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the built SDK', () => {
  it('is at most 10 KB gzipped', () => {
    expect(built.gzipBytes).toBeGreaterThan(0);
    expect(built.gzipBytes).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  it('is one self-contained ES module: it imports nothing', async () => {
    const code = await readFile(built.file, 'utf8');
    expect(code).not.toMatch(/\bimport\s*[\s{*"'(]/);
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).toMatch(/\bexport\s*\{/);
  });

  it('is package @doorcode/client 4.1.0, an ES module with types and no dependencies', async () => {
    const pkg = JSON.parse(await readFile(join(repoRoot, 'sdk', 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: '@doorcode/client',
      version: '4.1.0',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    });
    expect(pkg).not.toHaveProperty('dependencies');
  });

  it('has declarations a browser project type-checks against (and that refuse a wrong call)', async () => {
    // Prepare: a page's TypeScript with the DOM library and no Node types.
    const consumer = join(dir, 'consumer');
    await writeFile(join(dir, 'package.json'), '{"type":"module"}');
    await rm(consumer, { recursive: true, force: true });
    await mkdir(consumer, { recursive: true });
    await writeFile(
      join(consumer, 'page.ts'),
      [
        "import { createClient, DoorcodeError, type SessionInfo, type SignInResult } from '../dist/index.js';",
        "const client = createClient({ baseUrl: 'https://auth.example.com', publicKey: 'pu_x' });",
        "const started = await client.start({ email: 'ada@example.com' });",
        'const result = await client.poll({ ...started, signal: AbortSignal.timeout(1000) });',
        'const email: string = result.user.email;',
        'const session: SessionInfo | null = await client.getSession();',
        'const token: string | null = await client.refresh();',
        'const stop: () => void = client.onChange((next: string | null) => void next);',
        'try { await client.listSessions(); } catch (e) { if (e instanceof DoorcodeError) void e.details.attemptsLeft; }',
        "const start: string = await client.startSocialSignIn({ applicationId: 'app_1', provider: 'github', state: 's' });",
        'const social: SignInResult | null = await client.completeSocialSignIn();',
        '// @ts-expect-error no such provider',
        "await client.startSocialSignIn({ applicationId: 'app_1', provider: 'facebook' });",
        "// @ts-expect-error the tab's own state is checked: there is no expectedState",
        "await client.completeSocialSignIn({ expectedState: 's' });",
        '// @ts-expect-error publicKey is required',
        "createClient({ baseUrl: 'https://auth.example.com' });",
        'export { email, session, token, stop, start, social };',
      ].join('\n'),
    );
    await writeFile(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        include: ['page.ts'],
      }),
    );

    // Act
    const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');
    const result = await execFileText(tsc, ['-p', join(consumer, 'tsconfig.json')]).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
    );

    // Assess
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});

const execFileText = (file: string, args: string[]) => promisify(execFile)(file, args, { encoding: 'utf8' });
