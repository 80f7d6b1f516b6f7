/**
 * A loopback proxy in front of DynamoDB Local that cancels overlapping transactions as DynamoDB does and
 * DynamoDB Local never does (docs/operations.md, "Launch load"). DynamoDB rejects a TransactWriteItems
 * that names an item another ongoing TransactWriteItems names (TransactionCanceledException, reason
 * `TransactionConflict` for that item and `None` for the others), a TransactGetItems that names such an
 * item likewise, and a PutItem, UpdateItem or DeleteItem of such an item (TransactionConflictException):
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling
 * Here each transaction is held `hold` ms before it is forwarded, the time DynamoDB takes to run one,
 * and is ongoing for that time: the time DynamoDB Local then takes is this machine's, not DynamoDB's,
 * so it holds no item (with no hold, nothing ever conflicts: DynamoDB Local as it is). Every other
 * request is forwarded as it came. The service signs its requests for this endpoint; DynamoDB Local
 * checks no signature, so they pass unchanged.
 */
import { Agent, createServer, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One item a request names: its table, its key attributes (DynamoDB JSON) and what the request does to it. */
export interface NamedItem {
  readonly table: string;
  readonly key: Readonly<Record<string, unknown>>;
  readonly action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck' | 'Get';
}

interface ConflictProxyOptions {
  /** DynamoDB Local's endpoint (loopback). */
  upstream: string;
  /** Milliseconds each transaction is held before it is forwarded (0: forwarded at once). */
  hold: number;
  /** A label for each TransactWriteItems, by the items it names: what the counts are broken down by. */
  classify?: (items: readonly NamedItem[]) => string;
  /** How a transaction is held (default: a timer); tests pass one they release themselves. */
  wait?: (ms: number) => Promise<void>;
}

interface KindCounts {
  transactions: number;
  conflicts: number;
}

export interface ProxyCounts {
  /** TransactWriteItems received, cancelled here for a conflict, and answered by DynamoDB Local (200 or not). */
  transactions: number;
  conflicts: number;
  committed: number;
  refusedUpstream: number;
  byKind: Record<string, KindCounts>;
  /** TransactGetItems received, and those cancelled here. */
  transactGets: number;
  transactGetConflicts: number;
  /** PutItem, UpdateItem and DeleteItem received; of them, to an item a transaction of this count named; refused here. */
  singletonWrites: number;
  singletonWritesOnTransactionItems: number;
  singletonConflicts: number;
  /** Every request received, and the most transactions ongoing (held) at once, and their mean hold. */
  requests: number;
  maxOngoing: number;
  meanHoldMs: number;
  /** Requests forwarded by operation, with DynamoDB Local's mean answer time; the most waiting on it at once. */
  byOperation: Record<string, { requests: number; meanMs: number }>;
  maxUpstream: number;
  /** Items named by more than one transaction, most named first (at most 10). */
  hotItems: Array<{ item: string; transactions: number; conflicts: number }>;
  /** By kind (`classify`): the item its transactions named most, and how many of them named it. */
  mostNamed: Record<string, { item: string; transactions: number }>;
}

export interface ConflictProxy {
  readonly url: string;
  /** The hold of the transactions that arrive from now on. */
  hold: number;
  counts(): ProxyCounts;
  /** Starts the counts again (ongoing transactions stay ongoing). */
  reset(): void;
  close(): Promise<void>;
}

const API_VERSION = 'com.amazonaws.dynamodb.v20120810';
/** The reason DynamoDB gives for a conflicting item: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html */
const CONFLICT_MESSAGE = 'Transaction is ongoing for the item';
const WRITE_ACTIONS = ['Put', 'Update', 'Delete', 'ConditionCheck'] as const;
const SINGLETON_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem']);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** DynamoDB's JSON error answer: `__type` names the error, as the SDK's JSON 1.0 protocol reads it. */
function errorAnswer(type: string, fields: Record<string, unknown>): Answer {
  return {
    status: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: Buffer.from(JSON.stringify({ __type: `${API_VERSION}#${type}`, ...fields })),
  };
}

/** TransactionCanceledException with one reason per item, in the request's order. */
function cancelled(conflicting: readonly boolean[]): Answer {
  const codes = conflicting.map((conflict) => (conflict ? 'TransactionConflict' : 'None'));
  return errorAnswer('TransactionCanceledException', {
    CancellationReasons: conflicting.map((conflict) =>
      conflict ? { Code: 'TransactionConflict', Message: CONFLICT_MESSAGE } : { Code: 'None' },
    ),
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
  });
}

const label = (item: NamedItem) =>
  `${item.table}: ${Object.keys(item.key)
    .sort()
    .map((name) => {
      const value = item.key[name] as Record<string, unknown> | undefined;
      return String(value?.S ?? value?.N ?? JSON.stringify(value));
    })
    .join(' / ')}`;

/** Starts the proxy on a free loopback port. */
export async function startConflictProxy(options: ConflictProxyOptions): Promise<ConflictProxy> {
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const wait =
    options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  const keySchemas = new Map<string, Promise<string[]>>();
  /** The items ongoing transactions name (a transaction naming one of them never gets in). */
  const ongoing = new Set<string>();
  let ongoingTransactions = 0;
  let upstreamNow = 0;

  const fresh = () => ({
    transactions: 0,
    conflicts: 0,
    committed: 0,
    refusedUpstream: 0,
    byKind: {} as Record<string, KindCounts>,
    transactGets: 0,
    transactGetConflicts: 0,
    singletonWrites: 0,
    singletonConflicts: 0,
    requests: 0,
    maxOngoing: 0,
    held: 0,
    heldMs: 0,
    maxUpstream: 0,
    byOperation: {} as Record<string, { requests: number; upstreamMs: number }>,
    /** Item id -> its label and counts, for every item a transaction named. */
    transacted: new Map<
      string,
      { item: string; transactions: number; conflicts: number; byKind: Record<string, number> }
    >(),
    /** Item id -> singleton writes to it. */
    singletons: new Map<string, number>(),
  });
  let counts = fresh();

  /** Forwards one request as it came, timing DynamoDB Local's answer by operation. */
  async function forward(req: IncomingMessage, body: Buffer, headers = req.headers): Promise<Answer> {
    const target = String(headers['x-amz-target'] ?? '');
    const operation = target.slice(target.indexOf('.') + 1) || 'unknown';
    const current = counts;
    const from = performance.now();
    upstreamNow++;
    current.maxUpstream = Math.max(current.maxUpstream, upstreamNow);
    try {
      return await send(req, body, headers);
    } finally {
      upstreamNow--;
      const entry = current.byOperation[operation] ?? { requests: 0, upstreamMs: 0 };
      current.byOperation[operation] = entry;
      entry.requests++;
      entry.upstreamMs += performance.now() - from;
    }
  }

  function send(req: IncomingMessage, body: Buffer, headers: IncomingHttpHeaders): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...headers, host: upstream.host, 'content-length': String(body.length) },
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  /** The key attribute names of `table`, asked of DynamoDB Local once (a Put names its item, not its key). */
  function keyNames(req: IncomingMessage, table: string): Promise<string[]> {
    let names = keySchemas.get(table);
    if (!names) {
      const headers = { ...req.headers, 'x-amz-target': 'DynamoDB_20120810.DescribeTable' };
      names = forward(req, Buffer.from(JSON.stringify({ TableName: table })), headers).then((answer) => {
        const described = JSON.parse(answer.body.toString('utf8')) as {
          Table?: { KeySchema?: Array<{ AttributeName: string }> };
        };
        const schema = described.Table?.KeySchema?.map((entry) => entry.AttributeName);
        if (!schema) throw new Error(`DescribeTable ${table}: ${answer.body.toString('utf8')}`);
        return schema;
      });
      names.catch(() => keySchemas.delete(table));
      keySchemas.set(table, names);
    }
    return names;
  }

  type Operation = { TableName: string; Key?: Record<string, unknown>; Item?: Record<string, unknown> };

  async function named(req: IncomingMessage, action: NamedItem['action'], op: Operation): Promise<NamedItem> {
    if (op.Key) return { table: op.TableName, key: op.Key, action };
    const names = await keyNames(req, op.TableName);
    return {
      table: op.TableName,
      key: Object.fromEntries(names.map((name) => [name, op.Item?.[name]])),
      action,
    };
  }

  const idOf = (item: NamedItem) =>
    JSON.stringify([
      item.table,
      ...Object.keys(item.key)
        .sort()
        .map((name) => [name, item.key[name]]),
    ]);

  async function transactWrite(req: IncomingMessage, body: Buffer): Promise<Answer> {
    const parsed = JSON.parse(body.toString('utf8')) as { TransactItems?: Array<Record<string, Operation>> };
    const items = await Promise.all(
      (parsed.TransactItems ?? []).map((entry) => {
        const action = WRITE_ACTIONS.find((name) => entry[name]);
        if (!action) throw new Error(`a transaction item of no known action: ${Object.keys(entry).join()}`);
        return named(req, action, entry[action] as Operation);
      }),
    );
    const ids = items.map(idOf);
    const current = counts;
    const kind = options.classify?.(items) ?? 'transaction';
    const byKind = current.byKind[kind] ?? { transactions: 0, conflicts: 0 };
    current.byKind[kind] = byKind;
    current.transactions++;
    byKind.transactions++;
    const conflicting = ids.map((id) => ongoing.has(id));
    ids.forEach((id, index) => {
      const entry = current.transacted.get(id) ?? {
        item: label(items[index]!),
        transactions: 0,
        conflicts: 0,
        byKind: {},
      };
      entry.transactions++;
      entry.byKind[kind] = (entry.byKind[kind] ?? 0) + 1;
      if (conflicting[index]) entry.conflicts++;
      current.transacted.set(id, entry);
    });
    if (conflicting.some(Boolean)) {
      current.conflicts++;
      byKind.conflicts++;
      return cancelled(conflicting);
    }
    const hold = proxy.hold;
    if (hold > 0) {
      for (const id of ids) ongoing.add(id);
      ongoingTransactions++;
      current.maxOngoing = Math.max(current.maxOngoing, ongoingTransactions);
      const from = performance.now();
      try {
        await wait(hold);
      } finally {
        current.held++;
        current.heldMs += performance.now() - from;
        for (const id of ids) ongoing.delete(id);
        ongoingTransactions--;
      }
    }
    const answer = await forward(req, body);
    if (answer.status === 200) current.committed++;
    else current.refusedUpstream++;
    return answer;
  }

  async function transactGet(req: IncomingMessage, body: Buffer): Promise<Answer> {
    const parsed = JSON.parse(body.toString('utf8')) as { TransactItems?: Array<{ Get: Operation }> };
    const items = await Promise.all(
      (parsed.TransactItems ?? []).map((entry) => named(req, 'Get', entry.Get)),
    );
    counts.transactGets++;
    const conflicting = items.map((item) => ongoing.has(idOf(item)));
    if (!conflicting.some(Boolean)) return forward(req, body);
    counts.transactGetConflicts++;
    return cancelled(conflicting);
  }

  async function singletonWrite(req: IncomingMessage, body: Buffer, operation: string): Promise<Answer> {
    const op = JSON.parse(body.toString('utf8')) as Operation;
    const action = operation === 'PutItem' ? 'Put' : operation === 'UpdateItem' ? 'Update' : 'Delete';
    const id = idOf(await named(req, action, op));
    counts.singletonWrites++;
    counts.singletons.set(id, (counts.singletons.get(id) ?? 0) + 1);
    if (!ongoing.has(id)) return forward(req, body);
    counts.singletonConflicts++;
    return errorAnswer('TransactionConflictException', { message: CONFLICT_MESSAGE });
  }

  const server = createServer(async (req, res) => {
    let answer: Answer;
    try {
      const body = await readBody(req);
      counts.requests++;
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = target.slice(target.indexOf('.') + 1);
      if (operation === 'TransactWriteItems') answer = await transactWrite(req, body);
      else if (operation === 'TransactGetItems') answer = await transactGet(req, body);
      else if (SINGLETON_WRITES.has(operation)) answer = await singletonWrite(req, body, operation);
      else answer = await forward(req, body);
    } catch (error) {
      answer = errorAnswer('InternalServerError', { message: `conflict proxy: ${(error as Error).message}` });
      answer.status = 500;
    }
    const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
    delete headers['transfer-encoding'];
    delete headers.connection;
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const proxy: ConflictProxy = {
    url: `http://127.0.0.1:${port}`,
    hold: options.hold,
    counts() {
      const c = counts;
      let onTransactionItems = 0;
      for (const [id, writes] of c.singletons) if (c.transacted.has(id)) onTransactionItems += writes;
      return {
        transactions: c.transactions,
        conflicts: c.conflicts,
        committed: c.committed,
        refusedUpstream: c.refusedUpstream,
        byKind: structuredClone(c.byKind),
        transactGets: c.transactGets,
        transactGetConflicts: c.transactGetConflicts,
        singletonWrites: c.singletonWrites,
        singletonWritesOnTransactionItems: onTransactionItems,
        singletonConflicts: c.singletonConflicts,
        requests: c.requests,
        maxOngoing: c.maxOngoing,
        meanHoldMs: c.held === 0 ? 0 : c.heldMs / c.held,
        byOperation: Object.fromEntries(
          Object.entries(c.byOperation).map(([operation, { requests, upstreamMs }]) => [
            operation,
            { requests, meanMs: upstreamMs / requests },
          ]),
        ),
        maxUpstream: c.maxUpstream,
        hotItems: [...c.transacted.values()]
          .filter((entry) => entry.transactions > 1)
          .sort((a, b) => b.transactions - a.transactions)
          .slice(0, 10)
          .map(({ item, transactions, conflicts }) => ({ item, transactions, conflicts })),
        mostNamed: Object.fromEntries(
          Object.keys(c.byKind).map((kind) => {
            let most = { item: '', transactions: 0 };
            for (const entry of c.transacted.values()) {
              const named = entry.byKind[kind] ?? 0;
              if (named > most.transactions) most = { item: entry.item, transactions: named };
            }
            return [kind, most];
          }),
        ),
      };
    },
    reset() {
      counts = fresh();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          agent.destroy();
          resolve();
        });
      }),
  };
  return proxy;
}
