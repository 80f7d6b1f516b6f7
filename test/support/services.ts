import { inject } from 'vitest';

/**
 * The run's endpoint of a DynamoDB Local (`dynamoStreamEndpoint`: the one for tables with a stream,
 * test/support/global-setup.ts) or the SES emulator. Only the lanes with services start them
 * (vitest.config.ts, `lanes`): a file of another lane that starts the app fails here, saying so.
 */
export function serviceEndpoint(key: 'dynamoEndpoint' | 'dynamoStreamEndpoint' | 'sesEndpoint'): string {
  const endpoint = inject(key);
  if (!endpoint) {
    throw new Error(
      `No ${key}: this file's lane starts no DynamoDB Local or SES emulator; move it to a lane with services (test/http/, vitest.config.ts)`,
    );
  }
  return endpoint;
}
