/**
 * A loopback stand-in for DynamoDB, KMS, SES v2 and Secrets Manager, so a bundle's first invocation runs its SDK
 * clients end to end (credentials, signing, endpoint, HTTP, parsing) without leaving the machine.
 * `ok` answers every call as an empty table would (no item, writes accepted), publishes `key` and
 * signs with it, accepts every email and holds a code-hash key; `fail` refuses every call with a non-retryable 400, so
 * the route's unexpected-error path runs once (no retry delays). It counts calls per service.
 */
import { constants, createPublicKey, type KeyObject, privateEncrypt } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Service = 'dynamodb' | 'kms' | 'ses' | 'secretsmanager';
export type StubMode = 'ok' | 'fail';

/** Who signed a call (AWS Signature Version 4): the access key id of its scope and its session token. */
interface Signed {
  readonly service: Service;
  /** From the `Credential=<id>/<date>/<region>/<service>/aws4_request` of the Authorization header. */
  readonly accessKeyId: string | undefined;
  readonly region: string | undefined;
  /** The `X-Amz-Security-Token` header: temporary credentials' session token. */
  readonly securityToken: string | undefined;
}

export interface AwsStub {
  /** For the child's `AWS_ENDPOINT_URL`: every SDK client then calls this server. */
  readonly endpoint: string;
  /** Calls per service since the last `reset()`. */
  calls(): Record<Service, number>;
  /** Who signed each call since the last `reset()`, in order. */
  signatures(): readonly Signed[];
  reset(): void;
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

function okAnswer(service: Service, operation: string, body: string, key: KeyObject): object {
  if (service === 'dynamodb') return dynamoAnswers[operation] ?? {};
  if (service === 'ses') return { MessageId: 'bench' };
  if (service === 'secretsmanager') return { Name: 'bench', SecretString: 'be'.repeat(32) };
  const algorithms = { KeyUsage: 'SIGN_VERIFY', SigningAlgorithms: ['RSASSA_PKCS1_V1_5_SHA_256'] };
  if (operation === 'GetPublicKey') {
    const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
    return { KeyId: 'bench', KeySpec: 'RSA_2048', PublicKey: spki.toString('base64'), ...algorithms };
  }
  const digest = Buffer.from((JSON.parse(body) as { Message: string }).Message, 'base64');
  const signature = privateEncrypt(
    { key, padding: constants.RSA_PKCS1_PADDING },
    Buffer.concat([sha256DigestInfo, digest]),
  );
  return { KeyId: 'bench', Signature: signature.toString('base64'), ...algorithms };
}

/** Starts the stub on 127.0.0.1; `key` is the RSA private key KMS "holds". */
export async function startAwsStub(mode: StubMode, key: KeyObject): Promise<AwsStub> {
  let counts: Record<Service, number> = { dynamodb: 0, kms: 0, ses: 0, secretsmanager: 0 };
  let signed: Signed[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
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
      res.writeHead(200, { 'content-type': type });
      res.end(JSON.stringify(okAnswer(service, operation, Buffer.concat(chunks).toString('utf8'), key)));
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
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
