/**
 * Lost answers per write (docs/reliability.md, "Lost answers per write"): which DynamoDB write of
 * which route met a `lost` fault (the write committed, its answer lost, the SDK sent it again), and
 * which route writes never did, and why.
 *
 * A write is named by its route, its command and the kinds of item it writes: each item's family
 * (shared/store/keys.ts `keyFamilies`, by its partition key) and the first word of its sort key,
 * e.g. `refresh UpdateItem user:SESSION` or `oauthToken TransactWriteItems authorizationCode:CODE +
 * refreshToken:REFRESH + user:GRANT`. That name holds whatever the data, the order of the calls or
 * the scenario, and it tells apart the several writes of one command in one request (the three
 * transactions of a user's deletion write three different kinds).
 *
 * What writes a route has comes from the call-budget table (fixtures/call-budgets/table.ts), which
 * lists every route's AWS calls in order, scenario by scenario, and which test/http/call-budgets.test.ts
 * asserts against the handlers: each route × write command there is expected, as many distinct
 * writes of that command as the most one of its scenarios sends. The writes the run saw fill those
 * in; a route write the run never sent is listed with the budget's scenarios that send it.
 *
 * The fault injection draws its lost answers at random, so a write a run sends rarely may meet none.
 * After the faults phase the harness aims one at each write that met none (`aiming`, the `aim`
 * phase): that write's next attempt commits and its answer is lost exactly as the fault's is, while
 * the fault plan is off. The report tells the two apart.
 *
 * The route of a DynamoDB call: the harness's HTTP client knows each request's route by its source
 * address (every request has one of its own), and the server's request listener is wrapped so that
 * everything the handler does runs in an AsyncLocalStorage context naming it. The middleware sits in
 * the SDK client's `finalizeRequest` step, below its retries and above the fault injection
 * (shared/local/faults.ts, `deserialize`), so it sees every attempt and the lost answers it threw.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FinalizeHandler, FinalizeRequestMiddleware, MetadataBearer } from '@smithy/types';
import { callBudgets } from '../../fixtures/call-budgets/table.ts';
import { type RouteId, routeList } from '../../shared/routes.ts';
import { keyFamilies } from '../../shared/store/keys.ts';

const WRITE_COMMANDS = [
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'TransactWriteItems',
  'BatchWriteItem',
] as const;
type WriteCommand = (typeof WRITE_COMMANDS)[number];
const isWrite = (command: string): command is WriteCommand =>
  (WRITE_COMMANDS as readonly string[]).includes(command);

/** The family of a partition key: the table family whose pattern it starts with. */
const tableFamilies = Object.entries(keyFamilies)
  .filter(([, family]) => family.partition === 'table')
  .map(([name, family]) => ({ name, prefix: family.pattern.replace(/\*$/, '') }));

// biome-ignore lint/suspicious/noExplicitAny: a key's attributes, marshalled ({ S: … }) or native.
type Key = Record<string, any>;

const text = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof (value as { S?: unknown } | undefined)?.S === 'string'
      ? (value as { S: string }).S
      : '';

/** `family:SORTHEAD` of one item (its key or the item itself). */
function kindOf(item: Key | undefined): string {
  const pk = text(item?.pk);
  const sk = text(item?.sk);
  const family = tableFamilies.find(({ prefix }) => pk.startsWith(prefix))?.name ?? '?';
  return `${family}:${sk.split('#')[0]}`;
}

/** The kinds of item a write command writes, sorted, each once. */
function kindsOf(command: WriteCommand, input: Record<string, unknown>): string {
  const kinds = new Set<string>();
  if (command === 'PutItem') kinds.add(kindOf(input.Item as Key));
  else if (command === 'UpdateItem' || command === 'DeleteItem') kinds.add(kindOf(input.Key as Key));
  else if (command === 'TransactWriteItems') {
    for (const entry of (input.TransactItems ?? []) as Array<Record<string, { Item?: Key; Key?: Key }>>) {
      // A ConditionCheck writes nothing.
      const write = entry.Put ?? entry.Update ?? entry.Delete;
      if (write) kinds.add(kindOf(write.Item ?? write.Key));
    }
  } else {
    for (const requests of Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>)) {
      for (const request of requests as Array<{ PutRequest?: { Item: Key }; DeleteRequest?: { Key: Key } }>)
        kinds.add(kindOf(request.PutRequest?.Item ?? request.DeleteRequest?.Key));
    }
  }
  return [...kinds].sort().join(' + ');
}

/** Whether an attempt's error is the fault injection's lost answer (shared/local/faults.ts). */
const isLostAnswer = (error: unknown): boolean =>
  (error as { code?: unknown } | undefined)?.code === 'ECONNRESET' &&
  /fault injection/.test(String((error as Error).message));

/** A failed attempt in a word: `lost` (its answer), or the error's name. */
const failureOf = (error: unknown): string =>
  isLostAnswer(error) ? 'lost' : ((error as Error | undefined)?.name ?? 'error');

interface Seen {
  route: string;
  command: WriteCommand;
  items: string;
  /** Attempts sent (the SDK's resends included). */
  attempts: number;
  /** Attempts whose answer the fault injection lost after the write committed. */
  lost: number;
  /** Attempts whose answer the harness lost on purpose (`aiming`), after the write committed. */
  aimed: number;
  /** The flows that sent it. */
  flows: Set<string>;
}

/** What the SDK's HTTP handler throws when a connection is reset before the answer: as the fault injection's. */
const connectionReset = (): Error =>
  Object.assign(new Error('socket hang up (answer lost by fault injection, aimed by the chaos harness)'), {
    name: 'Error',
    code: 'ECONNRESET',
    $metadata: {},
  });

/** One route write of the report: seen (with its item kinds) or expected from the budget and never sent. */
interface RouteWrite {
  route: string;
  command: string;
  /** The kinds of item it writes; absent for a write the run never sent. */
  items?: string;
  attempts: number;
  /** Lost answers the fault injection drew for it, and those the harness aimed at it. */
  lost: number;
  aimed: number;
  /** Why it met no lost answer (absent when it met one). */
  why?: string;
}

export interface LostAnswerCoverage {
  /** Route writes: those the run sent, and those the call-budget table lists and the run never sent. */
  writes: RouteWrite[];
  /**
   * How many route writes there are; how many met a lost answer drawn by the fault injection, how
   * many only one the harness aimed at them; how many met none, by reason.
   */
  summary: { writes: number; hit: number; aimed: number; notHit: Record<string, number> };
  /** Writes sent outside any request of the clients (none expected: the aggregator has its own client). */
  unattributed: number;
}

/** The route writes the call-budget table expects: per route and command, the most one scenario sends. */
function budgetWrites(): Map<
  string,
  { route: RouteId; command: WriteCommand; count: number; scenarios: string[] }
> {
  const byName = new Map(routeList.map((route) => [`${route.method} ${route.path}`, route.id]));
  const expected = new Map<
    string,
    { route: RouteId; command: WriteCommand; count: number; scenarios: string[] }
  >();
  for (const budget of callBudgets) {
    const route = byName.get(budget.route);
    if (!route) throw new Error(`the call budget names no route of the table: ${budget.route}`);
    const inScenario = new Map<WriteCommand, number>();
    for (const call of budget.dynamodb) {
      const command = call.replace(/ \(.*\)$/, '');
      if (isWrite(command)) inScenario.set(command, (inScenario.get(command) ?? 0) + 1);
    }
    for (const [command, count] of inScenario) {
      const key = `${route} ${command}`;
      const entry = expected.get(key) ?? { route, command, count: 0, scenarios: [] };
      entry.count = Math.max(entry.count, count);
      entry.scenarios.push(budget.scenario);
      expected.set(key, entry);
    }
  }
  return expected;
}

/** A request the service serves: its route and the flow that sent it, and the DynamoDB attempts of it that failed. */
interface Served {
  route: string;
  flow: string;
  failed: string[];
}

export class WriteWatch {
  readonly #context = new AsyncLocalStorage<Served>();
  readonly #seen = new Map<string, Seen>();
  /** The DynamoDB attempts that failed in each request, by its request id (what a violation names). */
  readonly #failedByRequest = new Map<string, string[]>();
  #unattributed = 0;
  /**
   * While on, the first attempt of each write that has met no lost answer yet commits and then loses
   * its answer, as the fault injection's `lost` does: with the fault plan off, so nothing else
   * meets the resend (a conflict drawn for the resend of a landed transaction would not be AWS's).
   */
  aiming = false;
  readonly #aiming = new Set<string>();

  /** The flows that sent a write that has met no lost answer yet: what the aim phase runs. */
  wanted(): Set<string> {
    const flows = new Set<string>();
    for (const seen of this.#seen.values())
      if (seen.lost + seen.aimed === 0) for (const flow of seen.flows) flows.add(flow);
    return flows;
  }

  /** What went wrong in the DynamoDB calls of a request (`lost UpdateItem user:SESSION`, …), if anything. */
  failuresOf(requestId: string): string[] {
    return this.#failedByRequest.get(requestId) ?? [];
  }

  /**
   * Runs every request `server` serves in a context naming its route (`routeOf` its source
   * address), so the DynamoDB calls its handler makes know it.
   */
  attribute(
    server: Server,
    requestFrom: (address: string | undefined) => { route: string; flow: string } | undefined,
  ): void {
    const failedByRequest = this.#failedByRequest;
    const listeners = server.listeners('request') as Array<
      (req: IncomingMessage, res: ServerResponse) => void
    >;
    server.removeAllListeners('request');
    for (const listener of listeners) {
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const from = requestFrom(req.socket.remoteAddress);
        const served: Served = { route: from?.route ?? 'unknown', flow: from?.flow ?? 'unknown', failed: [] };
        // The request id is in the headers the server writes with the status (shared/http/respond.ts).
        const writeHead = res.writeHead;
        res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
          const headers = args.find(
            (arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null,
          );
          const requestId = headers?.['x-request-id'];
          if (served.failed.length > 0 && typeof requestId === 'string')
            failedByRequest.set(requestId, served.failed);
          return (writeHead as (...all: unknown[]) => ServerResponse).apply(this, args);
        } as ServerResponse['writeHead'];
        this.#context.run(served, () => listener(req, res));
      });
    }
  }

  /** Watches `client`'s write attempts (apply once, before the first request). */
  watch(client: DynamoDBDocumentClient): void {
    const middleware: FinalizeRequestMiddleware<object, MetadataBearer> =
      (next: FinalizeHandler<object, MetadataBearer>, context) => async (args) => {
        const command = ((context as { commandName?: string }).commandName ?? '').replace(/Command$/, '');
        const served = this.#context.getStore();
        if (!isWrite(command)) {
          try {
            return await next(args);
          } catch (error) {
            served?.failed.push(`${failureOf(error)} ${command}`);
            throw error;
          }
        }
        if (served === undefined) {
          this.#unattributed++;
          return next(args);
        }
        const { route, flow } = served;
        const items = kindsOf(command, (args.input ?? {}) as Record<string, unknown>);
        const key = `${route} ${command} ${items}`;
        const seen = this.#seen.get(key) ?? {
          route,
          command,
          items,
          attempts: 0,
          lost: 0,
          aimed: 0,
          flows: new Set<string>(),
        };
        this.#seen.set(key, seen);
        seen.attempts++;
        seen.flows.add(flow);
        // One aim at a time per write: an attempt that fails of itself (a condition) is no aim.
        const aim = this.aiming && seen.lost === 0 && seen.aimed === 0 && !this.#aiming.has(key);
        if (aim) this.#aiming.add(key);
        try {
          const answer = await next(args);
          if (aim) {
            seen.aimed++;
            throw connectionReset();
          }
          return answer;
        } catch (error) {
          if (aim) this.#aiming.delete(key);
          if (isLostAnswer(error) && !aim) seen.lost++;
          served.failed.push(`${failureOf(error)} ${command} ${items}`);
          throw error;
        }
      };
    client.middlewareStack.add(middleware, { step: 'finalizeRequest', priority: 'low', name: 'chaosWrites' });
  }

  /**
   * Every route write with its lost answers, or why it met none: the route was never driven, the
   * run never sent that write, or it was sent and never drew the fault. `driven`: the requests the
   * clients sent, by route.
   */
  coverage(driven: ReadonlyMap<string, number>): LostAnswerCoverage {
    const writes: RouteWrite[] = [];
    const seenByCommand = new Map<string, Seen[]>();
    for (const seen of this.#seen.values()) {
      const key = `${seen.route} ${seen.command}`;
      seenByCommand.set(key, [...(seenByCommand.get(key) ?? []), seen]);
    }
    const expected = budgetWrites();
    for (const seen of this.#seen.values()) {
      const inBudget = expected.has(`${seen.route} ${seen.command}`);
      writes.push({
        route: seen.route,
        command: seen.command,
        items: seen.items,
        attempts: seen.attempts,
        lost: seen.lost,
        aimed: seen.aimed,
        ...(seen.lost + seen.aimed > 0
          ? {}
          : {
              why: `sent ${seen.attempts} times, no lost answer drawn, none sent while aiming${inBudget ? '' : ' (not in the call budget)'}`,
            }),
      });
    }
    for (const [key, entry] of expected) {
      const kinds = seenByCommand.get(key)?.length ?? 0;
      const scenarios = [...new Set(entry.scenarios)].join('; ');
      const why =
        (driven.get(entry.route) ?? 0) === 0
          ? 'route never driven'
          : kinds === 0
            ? `route driven, this write never sent (the budget sends it in: ${scenarios})`
            : `route driven, ${kinds} of the ${entry.count} ${entry.command} the budget sends in one request seen (in: ${scenarios})`;
      for (let i = kinds; i < entry.count; i++) {
        writes.push({ route: entry.route, command: entry.command, attempts: 0, lost: 0, aimed: 0, why });
      }
    }
    writes.sort((a, b) =>
      `${a.route} ${a.command} ${a.items ?? '~'}`.localeCompare(`${b.route} ${b.command} ${b.items ?? '~'}`),
    );
    const notHit: Record<string, number> = {};
    for (const write of writes) {
      if (write.lost + write.aimed > 0) continue;
      const reason = write.why!.replace(/ \(.*$/, '').replace(/^sent \d+ times/, 'sent');
      notHit[reason] = (notHit[reason] ?? 0) + 1;
    }
    return {
      writes,
      summary: {
        writes: writes.length,
        hit: writes.filter((write) => write.lost > 0).length,
        aimed: writes.filter((write) => write.lost === 0 && write.aimed > 0).length,
        notHit,
      },
      unattributed: this.#unattributed,
    };
  }
}
