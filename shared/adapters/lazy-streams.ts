/**
 * What a deployed bundle holds instead of `node:stream/web` and `node:stream/promises` (aliased by
 * lib/bundling.ts): the same `ReadableStream` and `pipeline`, with their built-in loaded at first use
 * rather than at import. Only `@middy/core` imports them, for streamed responses, which no route
 * answers, so a cold start no longer loads Node's web streams (docs/operations.md, "Cold starts").
 * Any other name imported from them fails the build.
 */

/** `new ReadableStream(...)` makes Node's own; `instanceof` asks Node's class. */
export class ReadableStream {
  constructor(...args: ConstructorParameters<typeof globalThis.ReadableStream>) {
    // A constructor that returns an object answers `new` with it: Node's own stream.
    // biome-ignore lint/correctness/noConstructorReturn: the stand-in makes the real class's instance.
    return new (process.getBuiltinModule('node:stream/web').ReadableStream)(...args);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof process.getBuiltinModule('node:stream/web').ReadableStream;
  }
}

type Pipeline = typeof import('node:stream/promises').pipeline;

export const pipeline = ((...args: unknown[]) =>
  (process.getBuiltinModule('node:stream/promises').pipeline as (...args: unknown[]) => Promise<void>)(
    ...args,
  )) as Pipeline;
