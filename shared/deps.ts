import { KMSClient } from '@aws-sdk/client-kms';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { type Clock, systemClock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import { KmsSigner } from './crypto/kms-signer.ts';
import { LocalSigner } from './crypto/local-signer.ts';
import { noSigner, type Signer } from './crypto/signer.ts';
import { createLogger, type Logger } from './log.ts';
import type { Mailer } from './mail/mailer.ts';
import { SesMailer } from './mail/ses-mailer.ts';
import { cryptoRandom, type Random } from './random.ts';
import { createDb, type Db } from './store/db.ts';

/** Everything a domain function may use. Built once per container; tests pass their own. */
export interface Deps {
  readonly config: Config;
  readonly db: Db;
  readonly signer: Signer;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
}

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The composition root: adapters chosen by configuration, any of them replaceable. */
export function createDeps(config: Config, overrides: Partial<Omit<Deps, 'config'>> = {}): Deps {
  const signer =
    overrides.signer ??
    (config.LOCAL_SIGNING_KEY_FILE
      ? LocalSigner.fromFile(config.LOCAL_SIGNING_KEY_FILE)
      : config.KMS_KEY_IDS.length > 0
        ? new KmsSigner(new KMSClient({ region: config.AWS_REGION }), config.KMS_KEY_IDS)
        : noSigner);
  const mailer =
    overrides.mailer ??
    new SesMailer(
      new SESv2Client({
        region: config.AWS_REGION,
        maxAttempts: 2,
        ...(config.SES_ENDPOINT ? { endpoint: config.SES_ENDPOINT, credentials: localCredentials } : {}),
      }),
      config.MAIL_FROM,
    );
  return {
    config,
    db:
      overrides.db ??
      createDb({ table: config.TABLE_NAME, region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT }),
    signer,
    mailer,
    clock: overrides.clock ?? systemClock,
    random: overrides.random ?? cryptoRandom,
    logger: overrides.logger ?? createLogger(config.LOG_LEVEL),
  };
}

let current: Deps | undefined;

/** The container's dependencies, built from the environment on first use. */
export function getDeps(): Deps {
  current ??= createDeps(loadConfig());
  return current;
}
