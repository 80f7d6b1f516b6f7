import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./loopback-dynamodb-local.java', import.meta.url));
/** The class the wrapper's source declares. */
export const LOOPBACK_MAIN_CLASS = 'LoopbackDynamoDbLocal';

/** The jar and its libraries, as a class path. */
export const jarClassPath = (jarDir: string): string =>
  [join(jarDir, 'DynamoDBLocal.jar'), join(jarDir, 'DynamoDBLocal_lib', '*')].join(delimiter);

const compile = (classPath: string, into: string): Promise<boolean> =>
  new Promise((resolve) => {
    execFile('javac', ['-nowarn', '-cp', classPath, '-d', into, SOURCE], (error) => resolve(!error));
  });

/**
 * The directory holding the compiled loopback wrapper (loopback-dynamodb-local.java), compiled once
 * per version of its source and of the jar under `cacheDir`; null without a working `javac` (a Java
 * runtime without the JDK), and DynamoDB Local then has to run unwrapped, on every interface.
 */
export async function loopbackWrapper(jarDir: string, cacheDir: string): Promise<string | null> {
  const version = createHash('sha256').update(readFileSync(SOURCE)).update(jarDir).digest('hex').slice(0, 16);
  const classes = join(cacheDir, `dynamodb-local-loopback-${version}`);
  if (existsSync(join(classes, `${LOOPBACK_MAIN_CLASS}.class`))) return classes;
  // Compiled aside and renamed, so a run (or a second instance of this one) that starts meanwhile
  // never sees half a directory.
  const building = `${classes}.${randomUUID()}.tmp`;
  try {
    if (!(await compile(jarClassPath(jarDir), building))) return null;
    renameSync(building, classes);
  } catch (error) {
    // Another run renamed its copy first: use that one.
    if (!existsSync(join(classes, `${LOOPBACK_MAIN_CLASS}.class`))) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return classes;
}
