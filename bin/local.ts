/**
 * `npm start`: the whole service on this machine. Starts DynamoDB Local (data in .data/dynamodb),
 * the SES v2 emulator with its inbox page, a local RSA signing key (.data/signing-key.pem) and the
 * code-hash key (.data/code-hash-key), then serves every route of the route table through the real
 * Lambda handlers. Everything under .data/ is its owner's only (docs/security.md, "Local mode"): the table
 * and both keys are what an attacker needs to take over a local account.
 */
import { join } from 'node:path';
import { loadConfig } from '../shared/config.ts';
import { createDeps } from '../shared/deps.ts';
import { ensureTable } from '../shared/local/create-table.ts';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.ts';
import { describeFaults, faultsFromEnvironment, withFaults } from '../shared/local/faults.ts';
import { freePort } from '../shared/local/ports.ts';
import { privateDir } from '../shared/local/private-dir.ts';
import { startServer } from '../shared/local/server.ts';
import { startSesLocal } from '../shared/local/ses-local.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

// Files this process and DynamoDB Local (which inherits the mask) create are their owner's only.
process.umask(0o077);
const dataDir = privateDir(join(process.cwd(), '.data'));
const port = Number(process.env.PORT ?? 3000);
const sesPort = Number(process.env.SES_PORT ?? 8005);
const table = process.env.TABLE_NAME ?? 'doorcode-local';

/** CONTRIBUTING.md, "Running locally": without a JDK, DynamoDB Local cannot be bound to loopback. */
const everyInterfaceWarning = [
  '',
  '  WARNING     DynamoDB Local listens on EVERY network interface (no javac found to bind it to',
  '              127.0.0.1): anyone who can reach this machine can read and change its data and',
  '              take over a local account. Install a JDK, or use a trusted network only.',
].join('\n');

const stops: Array<() => Promise<void>> = [];
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
  process.exit(code);
}
process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));

try {
  // Fault injection (docs/reliability.md): read and checked before anything starts; never part of
  // the service's configuration, which refuses it (shared/config.ts).
  const { FAULTS, FAULT_SEED, ...environment } = process.env;
  const faults = faultsFromEnvironment({ FAULTS, FAULT_SEED });
  const dynamo = await startDynamoDbLocal({ port: await freePort(), dbPath: join(dataDir, 'dynamodb') });
  stops.push(dynamo.stop);
  const ses = await startSesLocal({ port: sesPort });
  stops.push(ses.stop);
  await ensureTable(dynamo.endpoint, table);

  const config = loadConfig({
    ...environment,
    TABLE_NAME: table,
    ISSUER: process.env.ISSUER ?? `http://127.0.0.1:${port}`,
    MAIL_FROM: process.env.MAIL_FROM ?? 'no-reply@doorcode.test',
    PLATFORM_ORIGINS: process.env.PLATFORM_ORIGINS ?? `http://127.0.0.1:${port},http://localhost:${port}`,
    LOCAL_SIGNING_KEY_FILE: process.env.LOCAL_SIGNING_KEY_FILE ?? join(dataDir, 'signing-key.pem'),
    LOCAL_CODE_KEY_FILE: process.env.LOCAL_CODE_KEY_FILE ?? join(dataDir, 'code-hash-key'),
    LOCAL_SEALING_KEY_FILE: process.env.LOCAL_SEALING_KEY_FILE ?? join(dataDir, 'sealing-key'),
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SES_ENDPOINT: ses.endpoint,
    SES_CONFIGURATION_SET: process.env.SES_CONFIGURATION_SET ?? 'doorcode-local',
    // Local mode only (docs/oauth.md): an MCP client on this machine serves its metadata document on loopback.
    OAUTH_METADATA_ALLOW_LOOPBACK: process.env.OAUTH_METADATA_ALLOW_LOOPBACK ?? 'true',
  });
  const deps = createDeps(config);
  const server = await startServer({ port, deps: faults ? withFaults(deps, faults) : deps });
  stops.push(server.close);

  process.stdout.write(
    [
      '',
      `  ${config.SERVICE_NAME} is running locally`,
      '',
      `  Service     ${server.url}/`,
      `  Dashboard   ${server.url}/dashboard`,
      `  Status      ${server.url}/status`,
      `  JWKS        ${server.url}/.well-known/jwks.json`,
      `  Inbox       ${ses.inbox}   (every email the service sends; JSON at ${ses.endpoint}/store)`,
      `  DynamoDB    ${dynamo.endpoint}   (DynamoDB Local, table "${table}", data in .data/dynamodb)`,
      ...(dynamo.loopbackOnly ? [] : [everyInterfaceWarning]),
      ...(faults
        ? [`  Faults      ${describeFaults(faults.settings)}, FAULT_SEED=${faults.settings.seed}`]
        : []),
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
} catch (error) {
  process.stderr.write(`Could not start: ${(error as Error).message}\n`);
  await shutdown(1);
}
