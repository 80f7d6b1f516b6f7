/** Runs an invocation once a slot is free. */
export type Slots = <T>(invoke: () => Promise<T>) => Promise<T>;

/**
 * At most `limit` invocations at once; the others wait for a slot in arrival order. On Lambda each
 * invocation has a container to itself and its timeout starts when it is invoked; in one local
 * process every running handler shares the event loop and DynamoDB Local, which serves commands
 * about one at a time, so without a bound each handler of a burst waits for the whole burst and
 * times out (30 of 100 parallel verifies did).
 */
export function invocationSlots(limit: number): Slots {
  let free = limit;
  const waiting: Array<() => void> = [];
  return async (invoke) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await invoke();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
