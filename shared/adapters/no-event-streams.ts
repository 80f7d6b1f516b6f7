/**
 * What a deployed bundle holds instead of the AWS SDK's event-stream codec (`@smithy/core/event-streams`,
 * aliased here by lib/bundling.ts): none of the operations the service calls (DynamoDB, KMS, SES v2,
 * Secrets Manager) streams events, so the SDK's protocol never loads it. A call means a client with an
 * event-stream operation entered the bundle.
 */
function noEventStreams(): never {
  throw new Error('This bundle holds no event-stream codec (lib/bundling.ts)');
}

export class EventStreamSerde {
  constructor() {
    noEventStreams();
  }
}

export const eventStreamSerdeProvider = noEventStreams;
