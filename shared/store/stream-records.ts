/**
 * The records of the table's stream as Lambda delivers them (a DynamoDB Streams event source
 * mapping, https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html) and as the local stream
 * reader (shared/local/stream-reader.ts) builds them: images in DynamoDB's attribute-value JSON.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Item } from './batch.ts';

/** One stream record, as much of it as the statistics read. */
export interface StreamRecord {
  eventID?: string | undefined;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE' | undefined;
  /** On a deletion by TTL: `{ type: 'Service', principalId: 'dynamodb.amazonaws.com' }`. */
  userIdentity?: { type?: string | undefined; principalId?: string | undefined } | undefined;
  dynamodb?:
    | {
        /** What the stream holds of each change: the statistics need both images. */
        StreamViewType?: string | undefined;
        Keys?: Record<string, AttributeValue> | undefined;
        NewImage?: Record<string, AttributeValue> | undefined;
        OldImage?: Record<string, AttributeValue> | undefined;
      }
    | undefined;
}

export interface StreamEvent {
  Records: StreamRecord[];
}

/** A stream record read: what changed, and whether TTL deleted it. */
export interface StreamChange {
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  /** The stream record's event id, unique in the stream. */
  eventId: string;
  /** A deletion by TTL, not by a request. */
  expired: boolean;
  /** The string attributes of the item before and after. */
  oldImage?: Item | undefined;
  newImage?: Item | undefined;
}

/**
 * The string attributes of an image, all the statistics read: the rest is left alone (a deserialised
 * empty map comes back as `{}`, which no unmarshalling reads).
 */
const image = (value: Record<string, AttributeValue> | undefined): Item | undefined =>
  value &&
  Object.fromEntries(
    Object.entries(value).flatMap(([name, attribute]) =>
      typeof attribute?.S === 'string' ? [[name, attribute.S]] : [],
    ),
  );

/**
 * The changes of `event`. A record without an event id or kind is not one DynamoDB writes: it is
 * refused (the batch fails and is delivered again) rather than counted wrongly.
 */
export function changesOf(event: StreamEvent): StreamChange[] {
  return event.Records.map((record) => {
    if (!record.eventID || !record.eventName) throw new Error('a stream record without eventID or eventName');
    // Without the old image a deletion could not say what it uncounts: refuse rather than miscount.
    const view = record.dynamodb?.StreamViewType;
    if (view !== undefined && view !== 'NEW_AND_OLD_IMAGES') {
      throw new Error(`the table's stream holds ${view}, not NEW_AND_OLD_IMAGES (docs/operations.md)`);
    }
    return {
      kind: record.eventName,
      eventId: record.eventID,
      expired:
        record.userIdentity?.type === 'Service' &&
        record.userIdentity.principalId === 'dynamodb.amazonaws.com',
      oldImage: image(record.dynamodb?.OldImage),
      newImage: image(record.dynamodb?.NewImage),
    };
  });
}
