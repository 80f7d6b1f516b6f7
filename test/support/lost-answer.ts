import { randomUUID } from 'node:crypto';
import type { Db } from '../../shared/store/db.ts';

let installed = 0;

/**
 * Loses the answer of the first command `picks` chooses, after the command landed: inside the SDK's
 * retries (deserialize step), so the SDK sends the same request again, as it does when a response is
 * lost to a timeout or a reset connection (db.ts: maxAttempts 3). `sends()` counts the picked
 * commands' sends, resends included.
 *
 * `newToken`: the resend carries another ClientRequestToken (of the same length), as a send the
 * idempotency window no longer covers would, so DynamoDB applies it again instead of answering it
 * as the first: the store must then recognise its own landed write. (The body changes after
 * signing: DynamoDB Local does not check the signature's payload hash.)
 */
export function loseFirstAnswer(
  db: Db,
  picks: (command: string, input: Record<string, unknown>) => boolean,
  options: { newToken?: boolean } = {},
): { sends: () => number; restore: () => void } {
  const name = `loseFirstAnswer${installed++}`;
  let sent = 0;
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const picked = picks(context.commandName ?? '', args.input as Record<string, unknown>);
      const request = args.request as { body?: unknown };
      if (picked && sent > 0 && options.newToken) request.body = withNewToken(request.body);
      const answer = await next(args);
      if (picked && sent++ === 0) {
        throw Object.assign(new Error('answer lost'), { name: 'TimeoutError', $metadata: {} });
      }
      return answer;
    },
    { step: 'deserialize', name },
  );
  return { sends: () => sent, restore: () => db.client.middlewareStack.remove(name) };
}

/** A serialized request body (a string or bytes) with another ClientRequestToken of the same length. */
function withNewToken(body: unknown): unknown {
  const text = typeof body === 'string' ? body : Buffer.from(body as Uint8Array).toString('utf8');
  const changed = text.replace(/"ClientRequestToken":"[^"]*"/, `"ClientRequestToken":"${randomUUID()}"`);
  if (changed === text) throw new Error('the resend carries no ClientRequestToken to change');
  return typeof body === 'string' ? changed : Buffer.from(changed, 'utf8');
}
