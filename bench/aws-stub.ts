/**
 * A loopback stand-in for DynamoDB, KMS, SES v2 and Secrets Manager, so a bundle's first invocation runs its SDK
 * clients end to end (credentials, signing, endpoint, HTTP, parsing) without leaving the machine.
 * `ok` answers every call as an empty table would (no item, writes accepted), publishes `key` and
 * signs with it, seals with a fixed stand-in, accepts every email and holds the code-hash key
 * `CODE_KEY_HEX`; `fail` refuses every call with a non-retryable 400, so the route's
 * unexpected-error path runs once (no retry delays). It counts calls per service.
 *
 * DynamoDB in `ok` mode can also be a recording (`useDynamoDb`): `record` passes each call on to a real
 * table (DynamoDB Local) and keeps its answer, `replay` gives the kept answers back in order, so every
 * sample of a request sees the table its first run saw, whatever that run wrote.
 */
import { constants, createPublicKey, type KeyObject, privateEncrypt } from 'node:crypto';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Service = 'dynamodb' | 'kms' | 'ses' | 'secretsmanager';
export type StubMode = 'ok' | 'fail';

/** The code-hash key Secrets Manager holds here (64 hex digits, docs/security.md, The code-hash key). */
export const CODE_KEY_HEX = 'be'.repeat(32);

/** Who signed a call (AWS Signature Version 4): the access key id of its scope and its session token. */
interface Signed {
  readonly service: Service;
  /** From the `Credential=<id>/<date>/<region>/<service>/aws4_request` of the Authorization header. */
  readonly accessKeyId: string | undefined;
  readonly region: string | undefined;
  /** The `X-Amz-Security-Token` header: temporary credentials' session token. */
  readonly securityToken: string | undefined;
}

/** One DynamoDB answer as the table gave it, to the request it answered. */
interface Answer {
  readonly operation: string;
  readonly request: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * The DynamoDB answers of one request: recorded on its first run, replayed on the others, each
 * answer once, to the same request if one is (a read), else to the next of the same operation (a
 * write names ids of its own), so calls made side by side may come in any order.
 */
export interface Recording {
  readonly answers: Answer[];
  /** Calls a replay could not answer from the recording (another operation, or more calls). */
  misses: number;
}

/** Where DynamoDB calls go: the stub's empty table, a real one through a recording, or a recording. */
export type DynamoDbSource =
  | { readonly kind: 'empty' }
  | { readonly kind: 'record'; readonly endpoint: string; readonly recording: Recording }
  | { readonly kind: 'replay'; readonly recording: Recording };

export interface AwsStub {
  /** For the child's `AWS_ENDPOINT_URL`: every SDK client then calls this server. */
  readonly endpoint: string;
  /** Calls per service since the last `reset()`. */
  calls(): Record<Service, number>;
  /** Who signed each call since the last `reset()`, in order. */
  signatures(): readonly Signed[];
  /** Clears the counts; DynamoDB answers as an empty table again, until `useDynamoDb`. */
  reset(): void;
  /** Where the DynamoDB calls of the next process go (`ok` mode). */
  useDynamoDb(source: DynamoDbSource): void;
  close(): Promise<void>;
}

const dynamoAnswers: Record<string, object> = {
  BatchGetItem: { Responses: {}, UnprocessedKeys: {} },
  BatchWriteItem: { UnprocessedItems: {} },
  Query: { Items: [], Count: 0, ScannedCount: 0 },
  TransactGetItems: { Responses: [] },
};

// RFC 8017 §9.2: DigestInfo prefix of a SHA-256 digest, what KMS signs with MessageType DIGEST.
const sha256DigestInfo = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** What the stand-in "encrypts" to: the plaintext behind a marker (it guards nothing; the bench needs no secret). */
const SEALED = Buffer.from('bench-sealed:');

function serviceOf(req: IncomingMessage): Service | undefined {
  const target = String(req.headers['x-amz-target'] ?? '');
  if (target.startsWith('DynamoDB_')) return 'dynamodb';
  if (target.startsWith('TrentService.')) return 'kms';
  if (target.startsWith('secretsmanager.')) return 'secretsmanager';
  if (req.url?.startsWith('/v2/email/')) return 'ses';
  return undefined;
}

/** https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html#add-signature-to-request */
function signedBy(service: Service, req: IncomingMessage): Signed {
  const credential = /Credential=([^/,\s]+)\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization ?? ''));
  const token = req.headers['x-amz-security-token'];
  return {
    service,
    accessKeyId: credential?.[1],
    region: credential?.[2],
    securityToken: typeof token === 'string' ? token : undefined,
  };
}

function kmsAnswer(operation: string, body: string, key: KeyObject): object {
  const algorithms = { KeyUsage: 'SIGN_VERIFY', SigningAlgorithms: ['RSASSA_PKCS1_V1_5_SHA_256'] };
  const request = JSON.parse(body) as { Message?: string; Plaintext?: string; CiphertextBlob?: string };
  if (operation === 'GetPublicKey') {
    const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
    return { KeyId: 'bench', KeySpec: 'RSA_2048', PublicKey: spki.toString('base64'), ...algorithms };
  }
  if (operation === 'Encrypt') {
    const sealed = Buffer.concat([SEALED, Buffer.from(request.Plaintext ?? '', 'base64')]);
    return { KeyId: 'bench-seal', CiphertextBlob: sealed.toString('base64') };
  }
  if (operation === 'Decrypt') {
    const sealed = Buffer.from(request.CiphertextBlob ?? '', 'base64');
    return { KeyId: 'bench-seal', Plaintext: sealed.subarray(SEALED.length).toString('base64') };
  }
  const digest = Buffer.from(request.Message ?? '', 'base64');
  const signature = privateEncrypt(
    { key, padding: constants.RSA_PKCS1_PADDING },
    Buffer.concat([sha256DigestInfo, digest]),
  );
  return { KeyId: 'bench', Signature: signature.toString('base64'), ...algorithms };
}

function okAnswer(service: Service, operation: string, body: string, key: KeyObject): object {
  if (service === 'dynamodb') return dynamoAnswers[operation] ?? {};
  if (service === 'ses') return { MessageId: 'bench' };
  if (service === 'secretsmanager') return { Name: 'bench', SecretString: CODE_KEY_HEX };
  return kmsAnswer(operation, body, key);
}

/** Passes one DynamoDB call on to `endpoint` as it came (DynamoDB Local reads no signature). */
function forward(
  endpoint: string,
  req: IncomingMessage,
  body: Buffer,
): Promise<Omit<Answer, 'operation' | 'request'>> {
  const url = new URL(req.url ?? '/', endpoint);
  return new Promise((resolve, reject) => {
    const out = request(
      url,
      { method: req.method, headers: { ...req.headers, host: url.host }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 500,
            headers: {
              'content-type': String(res.headers['content-type'] ?? 'application/x-amz-json-1.0'),
              ...(res.headers['x-amzn-requestid']
                ? { 'x-amzn-requestid': String(res.headers['x-amzn-requestid']) }
                : {}),
            },
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

/** Starts the stub on 127.0.0.1; `key` is the RSA private key KMS "holds". */
export async function startAwsStub(mode: StubMode, key: KeyObject): Promise<AwsStub> {
  let counts: Record<Service, number> = { dynamodb: 0, kms: 0, ses: 0, secretsmanager: 0 };
  let signed: Signed[] = [];
  let dynamodb: DynamoDbSource = { kind: 'empty' };
  let replayed = new Set<Answer>();

  async function dynamoAnswer(operation: string, req: IncomingMessage, body: Buffer): Promise<Answer> {
    const type = 'application/x-amz-json-1.0';
    const request = body.toString('utf8');
    if (dynamodb.kind === 'record') {
      const answer = { operation, request, ...(await forward(dynamodb.endpoint, req, body)) };
      dynamodb.recording.answers.push(answer);
      return answer;
    }
    if (dynamodb.kind === 'replay') {
      const unused = dynamodb.recording.answers.filter((answer) => !replayed.has(answer));
      const answer =
        unused.find((a) => a.operation === operation && a.request === request) ??
        unused.find((a) => a.operation === operation);
      if (answer) {
        replayed.add(answer);
        return answer;
      }
      dynamodb.recording.misses++;
    }
    return {
      operation,
      request,
      status: 200,
      headers: { 'content-type': type },
      body: JSON.stringify(dynamoAnswers[operation] ?? {}),
    };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const service = serviceOf(req);
      if (!service) {
        res.writeHead(404).end();
        return;
      }
      counts[service]++;
      signed.push(signedBy(service, req));
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const type = service === 'ses' ? 'application/json' : 'application/x-amz-json-1.0';
      if (mode === 'fail') {
        const message = { message: 'the bench stub refuses every call' };
        res.writeHead(400, { 'content-type': type, 'x-amzn-errortype': 'BadRequestException' });
        res.end(
          JSON.stringify(
            service === 'ses'
              ? message
              : { __type: 'com.amazon.coral.validate#ValidationException', ...message },
          ),
        );
        return;
      }
      const body = Buffer.concat(chunks);
      if (service === 'dynamodb') {
        try {
          const answer = await dynamoAnswer(operation, req, body);
          res.writeHead(answer.status, answer.headers).end(answer.body);
        } catch (error) {
          res.writeHead(500, { 'content-type': type }).end(JSON.stringify({ message: String(error) }));
        }
        return;
      }
      res.writeHead(200, { 'content-type': type });
      res.end(JSON.stringify(okAnswer(service, operation, body.toString('utf8'), key)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: () => ({ ...counts }),
    signatures: () => [...signed],
    reset: () => {
      counts = { dynamodb: 0, kms: 0, ses: 0, secretsmanager: 0 };
      signed = [];
      dynamodb = { kind: 'empty' };
      replayed = new Set();
    },
    useDynamoDb: (source) => {
      dynamodb = source;
      replayed = new Set();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
