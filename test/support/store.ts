import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import type { Config } from '../../shared/config.ts';
import { createDb, type Db } from '../../shared/store/db.ts';

/**
 * The app's table through its own client, with `middleware` wrapping every command (initialize step,
 * so it sees each command once, above the SDK's retries): a store that answers late, one command at a
 * time, or with the conflicts real DynamoDB raises and DynamoDB Local never does.
 */
export function storeWith(
  config: Config,
  name: string,
  middleware: InitializeMiddleware<object, MetadataBearer>,
): Db {
  const db = createDb({
    table: config.TABLE_NAME,
    region: config.AWS_REGION,
    endpoint: config.DYNAMODB_ENDPOINT,
  });
  db.client.middlewareStack.add(middleware, { step: 'initialize', name, priority: 'low' });
  return db;
}

/** What runs once between a request's read and its write: right after the first command `when` picks. */
export interface Between {
  when: (command: string, input: Record<string, any>) => boolean;
  run: () => Promise<void>;
}

/**
 * The app's table, running the `Between` a test arms (`armed.next`) once, right after the command it
 * picks has answered and before its caller sees the answer: another request lands between a
 * request's read and its write.
 */
export const storeLandingBetween = (config: Config, armed: { next: Between | null }): Db =>
  storeWith(config, 'landBetween', (next, context) => async (args) => {
    const answer = await next(args);
    const between = armed.next;
    const command = (context as { commandName?: string }).commandName ?? '';
    if (between?.when(command, args.input as Record<string, any>)) {
      armed.next = null;
      await between.run();
    }
    return answer;
  });
