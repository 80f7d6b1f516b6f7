import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../shared/crypto/jwt.ts';
import { LocalSigner } from '../../shared/crypto/local-signer.ts';
import { type JwksServer, startJwksServer } from '../support/jwks-server.ts';
import { testKeyPair } from '../support/keys.ts';

/**
 * Each package as its README's "Install" gets it to a user: `npm pack` (what `npm run pack:verifier`
 * and `npm run pack:client` run), then the tarball unpacked into `node_modules/@doorcode/<name>` of a
 * new project in the system's temporary folder, outside the repository. Beside it the project holds
 * only what a user installs: each package of the packed package.json's `dependencies`, each package
 * an `npm install` line of the packed README names (the middleware's peers and their types), and
 * what the project had already (`@types/node` for a Node project). Each is a link to the
 * repository's copy, so no registry is asked; a package missing from the manifest or the README is
 * missing here, and the compile or the run fails.
 * The examples compiled and run are the README's own code blocks (each after a
 * `<!-- install-test: name -->` line), read from the tarball: README and test cannot drift.
 */
const root = join(import.meta.dirname, '..', '..');
const work = await mkdtemp(join(tmpdir(), 'doorcode-install-'));
const run = promisify(execFile);
/** TypeScript 7 (the repository's) has no `node10` resolution; 5.9 still has all three. */
const tsc5 = join(root, 'node_modules', 'typescript5', 'bin', 'tsc');

const RESOLUTIONS = {
  node10: { module: 'ES2022', moduleResolution: 'node10' },
  node16: { module: 'Node16', moduleResolution: 'node16' },
  bundler: { module: 'ESNext', moduleResolution: 'bundler' },
} as const;
type Resolution = keyof typeof RESOLUTIONS;
const resolutions = Object.keys(RESOLUTIONS) as Resolution[];
/** A README example: a TypeScript code block right after its `<!-- install-test: name -->` line. */
const EXAMPLE = /<!-- install-test: ([\w-]+) -->\n```ts\n([\s\S]*?)```/g;
/** A shell block of the README. */
const SHELL = /```sh\n([\s\S]*?)```/g;
/** A registry package name, as an `npm install` argument (not a path, a tarball or a flag). */
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** The packages the README's `npm install` lines name, in their order; a comment after `#` ignored. */
function namedByInstallLines(readme: string): string[] {
  const lines = [...readme.matchAll(SHELL)].flatMap(([, block = '']) => block.split('\n'));
  return lines.flatMap((line) => {
    const [command, ...args] = (line.split('#')[0] ?? '').trim().split(/\s+/);
    if (command !== 'npm' || !['install', 'i', 'add'].includes(args[0] ?? '')) return [];
    return args.slice(1).filter((arg) => PACKAGE_NAME.test(arg));
  });
}

/** Fails when a folder above the project has a node_modules/, whose packages no user installed. */
async function expectNothingAbove(project: string) {
  for (let folder = dirname(project); ; folder = dirname(folder)) {
    const inherited = join(folder, 'node_modules');
    const exists = await access(inherited).then(
      () => true,
      () => false,
    );
    if (exists) throw new Error(`${inherited} exists: the test project would resolve packages from it`);
    if (folder === dirname(folder)) return;
  }
}

interface Installed {
  /** The consumer project: a package.json, node_modules/ and the README's examples. */
  project: string;
  /** The unpacked package. */
  dir: string;
  /** The README's marked examples, by marker name; each written to `<project>/<name>.ts`. */
  examples: Map<string, string>;
  /** The packages the packed README's `npm install` lines name. */
  named: string[];
  /** What the project's node_modules/ holds beside the package: links to the repository's copies. */
  linked: string[];
}

/**
 * Packs `folder` as `npm run pack:<name>` does and installs the tarball into a new project, with the
 * packages a user installs with it (see above) and `own`, what the project had before.
 */
async function install(folder: 'verifier' | 'sdk', own: string[]): Promise<Installed> {
  const project = join(work, folder);
  await expectNothingAbove(project);
  const { name, version } = JSON.parse(await readFile(join(root, folder, 'package.json'), 'utf8'));
  const dir = join(project, 'node_modules', name);
  await mkdir(dir, { recursive: true });
  await run('npm', ['pack', `./${folder}`, '--pack-destination', project, '--offline'], { cwd: root });
  const tarball = `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
  await run('tar', ['-xzf', join(project, tarball), '-C', dir, '--strip-components=1']);
  await writeFile(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  const readme = await readFile(join(dir, 'README.md'), 'utf8');
  const named = namedByInstallLines(readme);
  const linked = [...new Set([...Object.keys(manifest.dependencies ?? {}), ...named, ...own])];
  for (const dependency of linked) {
    const link = join(project, 'node_modules', dependency);
    await access(join(root, 'node_modules', dependency)).catch(() => {
      throw new Error(`${name} needs ${dependency}, which the repository's node_modules/ does not hold`);
    });
    await mkdir(dirname(link), { recursive: true });
    await symlink(join(root, 'node_modules', dependency), link, 'dir');
  }
  const examples = new Map<string, string>();
  for (const [, example = '', code = ''] of readme.matchAll(EXAMPLE)) {
    examples.set(example, code);
    await writeFile(join(project, `${example}.ts`), code);
  }
  return { project, dir, examples, named, linked };
}

/** What a TypeScript project on Node has before it installs anything of ours. */
const NODE_PROJECT = ['@types/node'];

/** `tsc` 5.9 over the examples with one resolution; its output (empty when they compile) and exit code. */
async function compile(
  installed: Installed,
  resolution: Resolution,
  options: Record<string, unknown>,
): Promise<{ code: number; output: string }> {
  const config = join(installed.project, `tsconfig.${resolution}.json`);
  const compilerOptions = {
    target: 'ES2022',
    strict: true,
    esModuleInterop: true,
    noEmit: true,
    // A consumer's compile checks the package's declarations too: an error in them fails here.
    // TypeScript's own lib files are not the package's.
    skipLibCheck: false,
    skipDefaultLibCheck: true,
    ...RESOLUTIONS[resolution],
    ...options,
  };
  const files = [...installed.examples.keys()].map((name) => `${name}.ts`);
  await writeFile(config, JSON.stringify({ compilerOptions, files }));
  return run(process.execPath, [tsc5, '-p', config], { encoding: 'utf8' }).then(
    () => ({ code: 0, output: '' }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
}

/** The files the tarball must carry beside its code, identical to the repository's. */
async function expectDocumentsShipped(installed: Installed, folder: string) {
  const manifest = JSON.parse(await readFile(join(installed.dir, 'package.json'), 'utf8'));
  expect(manifest.license).toBe('Apache-2.0');
  for (const name of ['README.md', 'LICENSE', 'CHANGELOG.md']) {
    expect(await readFile(join(installed.dir, name), 'utf8'), name).toBe(
      await readFile(join(root, folder, name), 'utf8'),
    );
  }
  expect(await readFile(join(installed.dir, 'LICENSE'), 'utf8')).toBe(
    await readFile(join(root, 'LICENSE'), 'utf8'),
  );
}

/** The README names each peer dependency to install, and the manifest declares each package the README names. */
async function expectPeersNamed(installed: Installed) {
  const manifest = JSON.parse(await readFile(join(installed.dir, 'package.json'), 'utf8'));
  expect([...installed.named].sort()).toEqual(Object.keys(manifest.peerDependencies ?? {}).sort());
}

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('@doorcode/verifier installed from its tarball', () => {
  const signer = new LocalSigner(testKeyPair().pem);
  let verifier: Installed;
  let jwks: JwksServer;

  beforeAll(async () => {
    [verifier, jwks] = await Promise.all([
      install('verifier', NODE_PROJECT),
      signer.publicKeys().then(startJwksServer),
    ]);
  });
  afterAll(async () => {
    await jwks?.close();
  });

  it('ships its README, the Apache-2.0 LICENSE and its CHANGELOG, and has the README examples', async () => {
    await expectDocumentsShipped(verifier, 'verifier');
    expect([...verifier.examples.keys()]).toEqual(['verify', 'express', 'hono']);
  });

  it('names in its README each peer to install, its types included, and the project gets only those and jose', async () => {
    await expectPeersNamed(verifier);
    expect(verifier.linked).toEqual(['jose', 'express', '@types/express', 'hono', '@types/node']);
  });

  it.each(resolutions)('compiles the README examples with moduleResolution %s', async (resolution) => {
    // Act: a Node project's settings; the subpaths ./express and ./hono included.
    const result = await compile(verifier, resolution, { lib: ['ES2022'], types: ['node'] });

    // Assess
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it('runs the README example with plain node: a session token of the issuer passes, another audience does not', async () => {
    // Prepare: the README says the example is JavaScript too, to run as verify.mjs.
    const script = join(verifier.project, 'verify.mjs');
    await writeFile(script, verifier.examples.get('verify') ?? '');
    const issuer = jwks.url.replace('/.well-known/jwks.json', '');
    const iat = Math.floor(Date.now() / 1000);
    const claims = { iss: issuer, sub: 'usr_1', email: 'a@example.test', sid: 'ses_1', iat, exp: iat + 600 };
    const session = await signJwt(signer, { ...claims, aud: 'platform', jti: 'jti_1' });
    const otherApplication = await signJwt(signer, { ...claims, aud: 'app_other', jti: 'jti_2' });
    const node = (token: string) =>
      run(process.execPath, [script, token], {
        cwd: verifier.project,
        env: { PATH: process.env.PATH ?? '', DOORCODE_ISSUER: issuer },
        encoding: 'utf8',
      });

    // Act
    const accepted = await node(session);
    const refused = await node(otherApplication);

    // Assess
    expect(accepted.stdout).toBe('signed in: usr_1 a@example.test\n');
    expect(refused.stdout).toBe('refused: TOKEN_AUDIENCE\n');
    expect(jwks.fetches()).toBe(2);
  });
});

describe('@doorcode/client installed from its tarball', () => {
  let client: Installed;
  /** A page's settings: the DOM library and no Node types. */
  const page = { lib: ['ES2022', 'DOM'], types: [] };

  beforeAll(async () => {
    client = await install('sdk', []);
  });

  it('ships its README, the Apache-2.0 LICENSE and its CHANGELOG, and has the README example', async () => {
    await expectDocumentsShipped(client, 'sdk');
    expect([...client.examples.keys()]).toEqual(['sign-in']);
  });

  it('needs no other package: the project holds the package alone', async () => {
    await expectPeersNamed(client);
    expect(client.linked).toEqual([]);
  });

  it.each(resolutions)('compiles the README example with moduleResolution %s', async (resolution) => {
    // Act
    const result = await compile(client, resolution, page);

    // Assess
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });

  it("runs the README example in plain node with a page's globals: a wrong code, then a sign-in", async () => {
    // Prepare: the example without its types (the compiles above check them), and a page around it.
    // The stand-in service answers as docs/api.md says `POST /auth/code/start` and `/auth/code/verify` do.
    const { code } = await transform(client.examples.get('sign-in') ?? '', { loader: 'ts', format: 'esm' });
    const example = pathToFileURL(join(client.project, 'sign-in.mjs')).href;
    await writeFile(join(client.project, 'sign-in.mjs'), code);
    const script = `
      const requests = [];
      const answer = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      const storage = () => {
        const items = new Map();
        return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k) };
      };
      const window = new EventTarget();
      Object.assign(globalThis, {
        localStorage: storage(),
        sessionStorage: storage(),
        addEventListener: window.addEventListener.bind(window),
        removeEventListener: window.removeEventListener.bind(window),
        dispatchEvent: window.dispatchEvent.bind(window),
        fetch: async (url, init) => {
          const body = JSON.parse(init.body);
          requests.push({ method: init.method, url, key: init.headers['x-api-key'], body });
          if (url.endsWith('/auth/code/start')) return answer(200, { sent: true, deviceCode: 'dc_1', phrase: 'a b c', expiresIn: 600, interval: 5 });
          if (body.code !== 'ABCD-EFGH') return answer(400, { error: { code: 'VALIDATION_ERROR', message: 'Wrong code', details: { attemptsLeft: 4 } } });
          return answer(200, { user: { id: 'usr_1', email: body.email }, token: 'token_1', session: { id: 'ses_1' } });
        },
      });
      const { sendCode, signIn } = await import(${JSON.stringify(example)});
      await sendCode('ada@example.test');
      console.log(await signIn('ada@example.test', 'WXYZ-WXYZ'));
      console.log(await signIn('ada@example.test', 'ABCD-EFGH'));
      console.log(JSON.stringify({ stored: localStorage.getItem('auth:token'), requests }));`;

    // Act
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: client.project,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });

    // Assess
    const [wrong, signedIn, welcome, record = '{}'] = stdout.trimEnd().split('\n');
    expect([wrong, signedIn, welcome]).toEqual([
      'Wrong code: 4 tries left',
      'signed in',
      'Welcome, ada@example.test',
    ]);
    const { stored, requests } = JSON.parse(record);
    expect(stored).toBe('token_1');
    expect(requests).toEqual([
      {
        method: 'POST',
        url: 'http://127.0.0.1:3000/auth/code/start',
        key: 'pu_…',
        body: { email: 'ada@example.test' },
      },
      {
        method: 'POST',
        url: 'http://127.0.0.1:3000/auth/code/verify',
        key: 'pu_…',
        body: { email: 'ada@example.test', code: 'WXYZ-WXYZ' },
      },
      {
        method: 'POST',
        url: 'http://127.0.0.1:3000/auth/code/verify',
        key: 'pu_…',
        body: { email: 'ada@example.test', code: 'ABCD-EFGH' },
      },
    ]);
  });
});
