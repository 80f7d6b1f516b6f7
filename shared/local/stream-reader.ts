/**
 * The local stand-in for the statistics aggregator's event source mapping (lib/statistics-aggregator.ts):
 * reads the table's stream in DynamoDB Local and hands each batch of records to the aggregator, as
 * Lambda does on AWS (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): shard by shard, in
 * order, at most AGGREGATOR_BATCH_SIZE records at a time; a batch that fails is delivered again from its first
 * record on the next pass, so nothing is skipped. `caughtUp` reads until the stream holds nothing
 * new, so a test (or the dashboard's statistics) can see the exact counts. DynamoDB Local makes a
 * record readable a moment after its write commits, so `caughtUp` first writes a marker item of its
 * own (`LOCAL#caught-up`, which counts nothing) and reads until the marker's record has come.
 */

/** The one item `caughtUp` writes, and sees come through the stream after every earlier write. */
const MARKER = { pk: 'LOCAL#caught-up', sk: 'MARK' } as const;

import { randomUUID } from 'node:crypto';
import { DescribeTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { StreamEvent, StreamRecord } from '../store/stream-records.ts';
import { AGGREGATOR_BATCH_SIZE } from '../tenancy/statistics-stream.ts';

export interface StreamReader {
  /** Resolves once every record written before the call has been delivered; rejects if a delivery failed. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

interface Shard {
  /** Where to read next; none: ask for one after `after` (or from the start). */
  iterator?: string | undefined;
  /** The sequence number of the last record delivered. */
  after?: string | undefined;
  /** A closed shard read to its end. */
  done: boolean;
}

export function startStreamReader(options: {
  endpoint: string;
  table: string;
  deliver: (event: StreamEvent) => Promise<unknown>;
  /** Between background passes; 0: none, only `caughtUp` reads. */
  intervalMs: number;
  onError?: (error: unknown) => void;
}): StreamReader {
  const settings = {
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  const dynamodb = new DynamoDBClient(settings);
  const streams = new DynamoDBStreamsClient(settings);
  const shards = new Map<string, Shard>();
  /** The marker values whose record has come through. */
  const seen = new Set<string>();
  let streamArn: string | undefined;
  let closed = false;

  async function arn(): Promise<string> {
    if (streamArn) return streamArn;
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: options.table }));
    if (!Table?.LatestStreamArn) throw new Error(`table ${options.table} has no stream`);
    streamArn = Table.LatestStreamArn;
    return streamArn;
  }

  async function iteratorOf(stream: string, shardId: string, shard: Shard): Promise<string | undefined> {
    if (shard.iterator) return shard.iterator;
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: stream,
        ShardId: shardId,
        ...(shard.after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: shard.after }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  /** Reads one shard to its current end; whether anything was delivered. */
  async function readShard(stream: string, shardId: string, shard: Shard): Promise<boolean> {
    let delivered = false;
    for (let renewed = 0; ; ) {
      const iterator = await iteratorOf(stream, shardId, shard);
      if (!iterator) {
        shard.done = true;
        return delivered;
      }
      const page = await streams
        .send(new GetRecordsCommand({ ShardIterator: iterator, Limit: AGGREGATOR_BATCH_SIZE }))
        .catch((error: Error) => {
          // An iterator past its 15 minutes, or behind what the stream has trimmed: ask again, from
          // the oldest record left (the aggregator counts a record delivered again only once).
          if (error.name !== 'ExpiredIteratorException' && error.name !== 'TrimmedDataAccessException') {
            throw error;
          }
          if (++renewed > 3) throw error;
          shard.iterator = undefined;
          if (error.name === 'TrimmedDataAccessException') shard.after = undefined;
          return undefined;
        });
      if (!page) continue;
      const records = page.Records ?? [];
      for (const record of records) {
        const image = record.dynamodb?.NewImage;
        if (image?.pk?.S === MARKER.pk && image.marker?.S) seen.add(image.marker.S);
      }
      if (records.length > 0) {
        try {
          await options.deliver({ Records: records as StreamRecord[] });
        } catch (error) {
          // Delivered again from its first record on the next pass.
          shard.iterator = undefined;
          throw error;
        }
        delivered = true;
        shard.after = records.at(-1)?.dynamodb?.SequenceNumber;
      }
      shard.iterator = page.NextShardIterator;
      if (!page.NextShardIterator) {
        shard.done = true;
        return delivered;
      }
      if (records.length === 0) return delivered;
    }
  }

  /** One pass over every shard; whether anything was delivered. */
  async function pass(): Promise<boolean> {
    const stream = await arn();
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: stream }));
    let delivered = false;
    for (const { ShardId } of StreamDescription?.Shards ?? []) {
      if (!ShardId) continue;
      const shard = shards.get(ShardId) ?? { done: false };
      shards.set(ShardId, shard);
      if (!shard.done && (await readShard(stream, ShardId, shard))) delivered = true;
    }
    return delivered;
  }

  // Passes run one at a time: the background's and caughtUp's share this chain.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = chain.then(run, run);
    chain = next.catch(() => undefined);
    return next;
  };

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (closed || options.intervalMs <= 0) return;
    timer = setTimeout(() => {
      serial(pass)
        .catch((error) => options.onError?.(error))
        .finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  schedule();

  return {
    caughtUp: async () => {
      const marker = randomUUID();
      await dynamodb.send(
        new PutItemCommand({
          TableName: options.table,
          Item: { pk: { S: MARKER.pk }, sk: { S: MARKER.sk }, marker: { S: marker } },
        }),
      );
      await serial(async () => {
        // Until the marker has come, and then until a pass finds nothing new.
        for (let wait = 1; !seen.has(marker); wait = Math.min(wait * 2, 50)) {
          if (!(await pass())) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        while (await pass()) {
          // Read again until a pass finds nothing new.
        }
        seen.delete(marker);
      });
    },
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await chain;
      dynamodb.destroy();
      streams.destroy();
    },
  };
}
