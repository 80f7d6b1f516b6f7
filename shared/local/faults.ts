/**
 * Fault injection for local mode and the chaos harness (docs/reliability.md): the failures AWS
 * services really answer, injected where the service would meet them, at a configured rate per
 * kind and from a seeded random source. Local mode only: `npm start` and `npm run chaos` apply it to
 * the Deps they build; no route imports this module, and a deployed function refuses `FAULTS`
 * (shared/config.ts, test/infra/faults.test.ts).
 *
 * Where a fault is injected:
 * - DynamoDB and SES v2: a middleware of the real SDK client, in its `deserialize` step. That step
 *   runs inside the retry middleware (`finalizeRequest` step), once per attempt, so the SDK's own
 *   retry strategy sees each fault as the service's answer to that attempt and retries what it would
 *   retry (throttling, 500, a network error) within `maxAttempts`: what reaches the service code is
 *   only a fault that outlasted every attempt, exactly as on AWS
 *   (https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html). The conflict retry
 *   of shared/store/conflict-retry.ts sits above it (initialize step) and sees the cancellations.
 * - KMS, the code key (Secrets Manager) and the sealer have local stand-ins (shared/crypto/local-*.ts)
 *   with no SDK client: their adapter objects are wrapped, and a fault there plays the final error of
 *   the SDK call (after its retries), once per call.
 */

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { DisabledException, KMSInvalidStateException } from '@aws-sdk/client-kms';
import {
  AccountSuspendedException,
  MessageRejected,
  SESv2Client,
  SendingPausedException,
} from '@aws-sdk/client-sesv2';
import { type NativeAttributeValue, unmarshall } from '@aws-sdk/util-dynamodb';
import type { DeserializeHandler, DeserializeMiddleware, MetadataBearer } from '@smithy/types';
import type { CodeHasher } from '../crypto/code-hasher.ts';
import type { SecretSealer } from '../crypto/secret-sealer.ts';
import type { Signer } from '../crypto/signer.ts';
import type { Deps } from '../deps.ts';
import { SesMailer } from '../mail/ses-mailer.ts';

/** The kinds `FAULTS` may name, each with its rate: the share of calls (SDK attempts) it fails. */
export const FAULT_KINDS = ['dynamodb', 'lost', 'latency', 'kms', 'ses', 'secrets'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** What each kind does; docs/reliability.md, "Faults", says the same. */
export const FAULT_KIND_MEANING: Record<FaultKind, string> = {
  dynamodb:
    'a DynamoDB attempt answers ProvisionedThroughputExceededException / ThrottlingException, a 500 InternalServerError, or (a write) a TransactionConflict cancellation, and nothing is applied; or a batch leaves half its keys unprocessed',
  lost: 'a DynamoDB attempt reaches the table and commits, then its answer is lost (ECONNRESET)',
  latency: 'a DynamoDB attempt waits 150 to 1200 ms before it is sent',
  kms: 'a KMS call (sign, seal, open) times out after 1.5 s, or answers DisabledException / KMSInvalidStateException',
  ses: 'an SES SendEmail attempt answers MessageRejected / AccountSuspendedException / SendingPausedException, or times out after SES accepted it',
  secrets: "a code-hash key read times out after 1 s (a new container's first GetSecretValue)",
};

type FaultRates = Readonly<Record<FaultKind, number>>;

export interface FaultSettings {
  rates: FaultRates;
  /** The seed of the random source (a 32-bit unsigned integer). */
  seed: number;
}

/** A malformed `FAULTS` or `FAULT_SEED`: the message names the setting and what is wrong. */
class FaultSettingsError extends Error {
  override readonly name = 'FaultSettingsError';
}

const noFaults: FaultRates = { dynamodb: 0, lost: 0, latency: 0, kms: 0, ses: 0, secrets: 0 };

/**
 * `FAULTS` (`kind:rate,…`, e.g. `dynamodb:0.05,kms:0.02,ses:0.05,lost:0.02`) and `FAULT_SEED` (a
 * whole number from 0 to 4294967295; unset: a random one, so a run prints the seed to replay it).
 * Null when `FAULTS` is unset; anything malformed throws a FaultSettingsError naming it.
 */
export function parseFaultSettings(
  faults: string | undefined,
  seed: string | undefined,
  randomSeed: () => number = () => Math.floor(Math.random() * 2 ** 32),
): FaultSettings | null {
  if (faults === undefined) {
    if (seed !== undefined) throw new FaultSettingsError('FAULT_SEED is set but FAULTS is not');
    return null;
  }
  const rates: Record<FaultKind, number> = { ...noFaults };
  const seen = new Set<string>();
  const entries = faults.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => entry === '')) {
    throw new FaultSettingsError(`FAULTS is empty: give kind:rate pairs, kinds ${FAULT_KINDS.join(', ')}`);
  }
  for (const entry of entries) {
    const match = /^([a-z]+):([0-9]*\.?[0-9]+)$/.exec(entry);
    if (!match) {
      throw new FaultSettingsError(
        `FAULTS: "${entry}" is not kind:rate (e.g. dynamodb:0.05); kinds ${FAULT_KINDS.join(', ')}`,
      );
    }
    const [, kind = '', text = ''] = match;
    if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
      throw new FaultSettingsError(`FAULTS: "${kind}" is not a fault kind; kinds ${FAULT_KINDS.join(', ')}`);
    }
    if (seen.has(kind)) throw new FaultSettingsError(`FAULTS: "${kind}" is given twice`);
    seen.add(kind);
    const rate = Number(text);
    if (!(rate >= 0 && rate <= 1)) {
      throw new FaultSettingsError(`FAULTS: the rate of "${kind}" must be from 0 to 1, not ${text}`);
    }
    rates[kind as FaultKind] = rate;
  }
  return { rates, seed: parseSeed(seed, randomSeed) };
}

function parseSeed(seed: string | undefined, randomSeed: () => number): number {
  if (seed === undefined) return randomSeed() >>> 0;
  if (!/^[0-9]{1,10}$/.test(seed.trim()) || Number(seed) > 0xffffffff) {
    throw new FaultSettingsError(`FAULT_SEED must be a whole number from 0 to 4294967295, not "${seed}"`);
  }
  return Number(seed);
}

/** The settings as `FAULTS` spells them (the kinds with a rate). */
export const describeFaults = (settings: FaultSettings): string =>
  FAULT_KINDS.filter((kind) => settings.rates[kind] > 0)
    .map((kind) => `${kind}:${settings.rates[kind]}`)
    .join(',');

/**
 * mulberry32: a 32-bit seeded generator, uniform on [0, 1). Small and fast; not for secrets: it
 * only decides which call fails. https://gist.github.com/tommyettinger/46a874533244883189143505d203312c
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The running plan: its rates, its random source, a switch, and the count of every fault injected.
 * The seed fixes the sequence of draws; which call takes which draw follows the order calls are
 * made in, so concurrent clients make a run reproducible in its rates, not call for call.
 */
export class FaultPlan {
  readonly #random: () => number;
  readonly #counts = new Map<string, number>();
  readonly #byCall = new Map<string, number>();
  /** Faults are injected only while on (the harness turns them off to check that clients recover). */
  active = true;

  constructor(readonly settings: FaultSettings) {
    this.#random = mulberry32(settings.seed);
  }

  /** A number in [0, 1) from the seeded source. */
  random(): number {
    return this.#random();
  }

  /** Whether a call suffers a fault of `kind` (never while off). */
  hits(kind: FaultKind): boolean {
    const rate = this.settings.rates[kind];
    return this.active && rate > 0 && this.#random() < rate;
  }

  /** One of `choices`, uniformly from the seeded source. */
  pick<T>(choices: readonly T[]): T {
    return choices[Math.floor(this.#random() * choices.length)] as T;
  }

  record(name: string, call: string): void {
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + 1);
    const byCall = `${name} ${call.replace(/Command$/, '')}`;
    this.#byCall.set(byCall, (this.#byCall.get(byCall) ?? 0) + 1);
  }

  /** Faults injected so far, by name and the call they hit (`lost TransactWriteItems`). */
  countsByCall(): Record<string, number> {
    return Object.fromEntries([...this.#byCall].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** Faults injected so far, by name. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.#counts].sort(([a], [b]) => a.localeCompare(b)));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the SDK's node HTTP handler throws when the connection is reset before the answer arrives. */
const connectionReset = (): Error =>
  Object.assign(new Error('socket hang up (answer lost by fault injection)'), {
    name: 'Error',
    code: 'ECONNRESET',
    $metadata: {},
  });

/** What the SDK throws when its request timeout passes (`throwOnRequestTimeout`). */
const requestTimeout = (): Error =>
  Object.assign(new Error('Request timed out (fault injection)'), { name: 'TimeoutError', $metadata: {} });

const metadata = (httpStatusCode: number) => ({
  httpStatusCode,
  requestId: 'fault-injection',
  attempts: 1,
  totalRetryDelay: 0,
});
const message = 'fault injection';

const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

/**
 * A DynamoDB service error for `command`, as the SDK deserializes it; nothing was applied. `replay`:
 * the attempt resends a transaction an earlier attempt committed (its answer lost), which DynamoDB
 * answers from its ClientRequestToken as the first, never with a conflict
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
 */
function dynamoDbError(
  plan: FaultPlan,
  command: string,
  input: Record<string, unknown>,
  replay: boolean,
): [string, Error] {
  const conflicts = WRITES.has(command) && command !== 'BatchWriteItemCommand' && !replay;
  const what = plan.pick(conflicts ? ['throttle', 'throttle', '500', 'conflict'] : ['throttle', '500']);
  if (what === '500') return ['dynamodb.500', new InternalServerError({ message, $metadata: metadata(500) })];
  if (what === 'conflict') {
    if (command !== 'TransactWriteItemsCommand') {
      return ['dynamodb.conflict', new TransactionConflictException({ message, $metadata: metadata(400) })];
    }
    // One reason per item, in order: the conflicting item's `TransactionConflict`, the others `None`.
    const items = (input.TransactItems as unknown[] | undefined)?.length ?? 1;
    const at = Math.floor(plan.random() * items);
    const reasons = Array.from({ length: items }, (_, i) =>
      i === at
        ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
        : { Code: 'None' },
    );
    return [
      'dynamodb.conflict',
      new TransactionCanceledException({ message, $metadata: metadata(400), CancellationReasons: reasons }),
    ];
  }
  return plan.random() < 0.5
    ? ['dynamodb.throttle', new ProvisionedThroughputExceededException({ message, $metadata: metadata(400) })]
    : ['dynamodb.throttle', new ThrottlingException({ message, $metadata: metadata(400) })];
}

const BATCHES = new Set(['BatchGetItemCommand', 'BatchWriteItemCommand']);

type Marshalled = Record<string, NativeAttributeValue>;
type BatchRequests = Record<string, { Keys?: Marshalled[] } | Marshalled[]>;

/**
 * Sends the first half of each table's keys or requests of a serialized batch (of two or more) and
 * answers the rest as left unprocessed, as DynamoDB does under throttling
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html); undefined
 * for a batch of one, which is throttled whole instead. (The body changes after signing: DynamoDB
 * Local does not check the signature's payload hash.)
 */
function halve(request: unknown): BatchRequests | undefined {
  const http = request as { body?: unknown; headers?: Record<string, string> };
  const sent = bodyText(http.body);
  if (sent === undefined) return undefined;
  const body = JSON.parse(sent) as { RequestItems?: BatchRequests };
  const left: BatchRequests = {};
  for (const [table, requests] of Object.entries(body.RequestItems ?? {})) {
    const list = Array.isArray(requests) ? requests : (requests.Keys ?? []);
    if (list.length < 2) continue;
    const kept = list.slice(0, Math.ceil(list.length / 2));
    const rest = list.slice(kept.length);
    if (Array.isArray(requests)) {
      body.RequestItems![table] = kept;
      left[table] = rest;
    } else {
      body.RequestItems![table] = { ...requests, Keys: kept };
      left[table] = { ...requests, Keys: rest };
    }
  }
  if (Object.keys(left).length === 0) return undefined;
  const text = JSON.stringify(body);
  http.body = text;
  if (http.headers) http.headers['content-length'] = String(Buffer.byteLength(text));
  return left;
}

/**
 * Adds what `halve` held back to the answer as UnprocessedKeys or UnprocessedItems, in the document
 * client's form (this middleware sits above its unmarshalling).
 */
function leaveUnprocessed(answer: { output?: unknown }, command: string, left: BatchRequests): void {
  const output = answer.output as Record<string, unknown>;
  const native = (item: Marshalled) => unmarshall(item as Record<string, AttributeValue>);
  if (command === 'BatchGetItemCommand') {
    output.UnprocessedKeys = Object.fromEntries(
      Object.entries(left).map(([table, requests]) => {
        const { Keys = [], ...rest } = requests as { Keys?: Marshalled[] };
        return [table, { ...rest, Keys: Keys.map(native) }];
      }),
    );
    return;
  }
  output.UnprocessedItems = Object.fromEntries(
    Object.entries(left).map(([table, requests]) => [
      table,
      (requests as Array<{ DeleteRequest?: { Key: Marshalled }; PutRequest?: { Item: Marshalled } }>).map(
        (request) =>
          request.DeleteRequest
            ? { DeleteRequest: { Key: native(request.DeleteRequest.Key) } }
            : { PutRequest: { Item: native(request.PutRequest!.Item) } },
      ),
    ]),
  );
}

/** The ClientRequestToken of a serialized TransactWriteItems request, if any. */
function tokenOf(request: unknown): string | undefined {
  const text = bodyText((request as { body?: unknown } | undefined)?.body);
  return text === undefined ? undefined : /"ClientRequestToken":"([^"]+)"/.exec(text)?.[1];
}

const utf8 = new TextDecoder();

/** A serialized JSON body (the SDK sends a string or bytes; bytes read as bytes, never as a string). */
const bodyText = (body: unknown): string | undefined =>
  typeof body === 'string' ? body : body instanceof Uint8Array ? utf8.decode(body) : undefined;

/** The DynamoDB client's middleware: one draw per attempt for each kind, below the SDK's retries. */
function dynamoDbFaults(plan: FaultPlan): DeserializeMiddleware<object, MetadataBearer> {
  /** Tokens of transactions that committed and lost their answer: their resends are replays. */
  const landed = new Set<string>();
  return (next: DeserializeHandler<object, MetadataBearer>, context) => async (args) => {
    const command = (context as { commandName?: string }).commandName ?? 'unknown';
    const input = (args.input ?? {}) as Record<string, unknown>;
    const token = command === 'TransactWriteItemsCommand' ? tokenOf(args.request) : undefined;
    if (plan.hits('latency')) {
      plan.record('latency', command);
      await sleep(150 + Math.floor(plan.random() * 1050));
    }
    const hit = plan.hits('dynamodb');
    // Throttling of a batch is most often a part of it left unprocessed, the rest done.
    const partly = hit && BATCHES.has(command) && plan.random() < 0.5 ? halve(args.request) : undefined;
    if (hit && !partly) {
      const [name, error] = dynamoDbError(plan, command, input, token !== undefined && landed.has(token));
      plan.record(name, command);
      throw error;
    }
    if (partly) plan.record('dynamodb.unprocessed', command);
    const lost = plan.hits('lost');
    const answer = await next(args);
    if (partly) leaveUnprocessed(answer, command, partly);
    if (lost) {
      plan.record('lost', command);
      if (token !== undefined) landed.add(token);
      throw connectionReset();
    }
    if (token !== undefined) landed.delete(token);
    return answer;
  };
}

/** The SES v2 client's middleware: SendEmail refused, or timed out after SES accepted it. */
function sesFaults(plan: FaultPlan): DeserializeMiddleware<object, MetadataBearer> {
  return (next: DeserializeHandler<object, MetadataBearer>, context) => async (args) => {
    const command = (context as { commandName?: string }).commandName ?? 'unknown';
    if (command !== 'SendEmailCommand' || !plan.hits('ses')) return next(args);
    const what = plan.pick(['rejected', 'suspended', 'paused', 'timeout'] as const);
    plan.record(`ses.${what}`, command);
    if (what === 'timeout') {
      await next(args);
      throw requestTimeout();
    }
    if (what === 'rejected') throw new MessageRejected({ message, $metadata: metadata(400) });
    if (what === 'suspended') throw new AccountSuspendedException({ message, $metadata: metadata(400) });
    throw new SendingPausedException({ message, $metadata: metadata(400) });
  };
}

/** A KMS call's final error (after the SDK's retries: a stand-in has none of its own), or nothing. */
async function kmsFault(plan: FaultPlan, call: string): Promise<void> {
  if (!plan.hits('kms')) return;
  const what = plan.pick(['timeout', 'disabled', 'invalidState'] as const);
  plan.record(`kms.${what}`, call);
  if (what === 'timeout') {
    // shared/crypto/kms-client.ts: each try waits at most 1.5 s for its answer.
    await sleep(1_500);
    throw requestTimeout();
  }
  if (what === 'disabled') throw new DisabledException({ message, $metadata: metadata(400) });
  throw new KMSInvalidStateException({ message, $metadata: metadata(400) });
}

function faultySigner(signer: Signer, plan: FaultPlan): Signer {
  return {
    activeKey: () => signer.activeKey(),
    publicKeys: () => signer.publicKeys(),
    async sign(input, kid) {
      await kmsFault(plan, 'Sign');
      return signer.sign(input, kid);
    },
  };
}

function faultySealer(sealer: SecretSealer, plan: FaultPlan): SecretSealer {
  return {
    async seal(applicationId, plaintext) {
      await kmsFault(plan, 'Encrypt');
      return sealer.seal(applicationId, plaintext);
    },
    async open(applicationId, sealed) {
      await kmsFault(plan, 'Decrypt');
      return sealer.open(applicationId, sealed);
    },
  };
}

/**
 * The code-hash key is read once per container (shared/crypto/secrets-manager-code-key.ts): a hash
 * that lands on a new container whose first GetSecretValue times out fails, and that container's
 * next request reads again.
 */
function faultyCodeHasher(hasher: CodeHasher, plan: FaultPlan): CodeHasher {
  return {
    async hash(requestId, code) {
      if (plan.hits('secrets')) {
        plan.record('secrets.timeout', 'GetSecretValue');
        await sleep(1_000);
        throw requestTimeout();
      }
      return hasher.hash(requestId, code);
    },
  };
}

/** The SES v2 client a SesMailer sends with (its constructor's first argument). */
function sesClientOf(mailer: unknown): SESv2Client | undefined {
  if (!(mailer instanceof SesMailer)) return undefined;
  const client: unknown = Reflect.get(mailer, 'ses');
  if (!(client instanceof SESv2Client))
    throw new Error('fault injection: the SES mailer holds no SES v2 client');
  return client;
}

const MIDDLEWARE = 'doorcodeFaults';

/**
 * `deps` with faults of `plan`: the middleware on its DynamoDB client and on its SES mailer's client
 * (both changed in place: apply once per Deps), and its signer, sealer and code hasher wrapped.
 */
export function withFaults(deps: Deps, plan: FaultPlan): Deps {
  const stacks = [deps.db.client.middlewareStack, sesClientOf(deps.mailer)?.middlewareStack];
  if (stacks.some((stack) => stack?.identify().some((entry) => entry.startsWith(MIDDLEWARE)))) {
    throw new Error('fault injection: these deps already have faults');
  }
  // Above the deserializer (priority high): a lost answer has been read off its connection, which
  // goes back to the pool as after any answer; below it, each lost answer would hold a socket.
  const at = { step: 'deserialize', name: MIDDLEWARE, priority: 'high' } as const;
  deps.db.client.middlewareStack.add(dynamoDbFaults(plan), at);
  sesClientOf(deps.mailer)?.middlewareStack.add(sesFaults(plan), at);
  return {
    ...deps,
    signer: faultySigner(deps.signer, plan),
    sealer: faultySealer(deps.sealer, plan),
    codeHasher: faultyCodeHasher(deps.codeHasher, plan),
  };
}

/**
 * `npm start`'s faults from its environment (`FAULTS`, `FAULT_SEED`), or null: a malformed value
 * throws, so the server does not start.
 */
export function faultsFromEnvironment(env: Record<string, string | undefined>): FaultPlan | null {
  const settings = parseFaultSettings(env.FAULTS, env.FAULT_SEED);
  return settings ? new FaultPlan(settings) : null;
}
