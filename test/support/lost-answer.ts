import type { Db } from '../../shared/store/db.ts';

let installed = 0;

/**
 * Loses the answer of the first command `picks` chooses, after the command landed: inside the SDK's
 * retries (deserialize step), so the SDK sends the same request again, as it does when a response is
 * lost to a timeout or a reset connection (db.ts: maxAttempts 3). `sends()` counts the picked
 * commands' sends, resends included.
 */
export function loseFirstAnswer(
  db: Db,
  picks: (command: string, input: Record<string, unknown>) => boolean,
): { sends: () => number; restore: () => void } {
  const name = `loseFirstAnswer${installed++}`;
  let sent = 0;
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const picked = picks(context.commandName ?? '', args.input as Record<string, unknown>);
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
