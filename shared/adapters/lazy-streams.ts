/**
 * What a deployed bundle holds instead of `node:stream/web` (aliased by lib/bundling.ts): Node's
 * `ReadableStream`, loaded at first use rather than at import. Only `@middy/core` imports it, for
 * streamed responses, which no route answers (test/infra/bundle-access.test.ts checks that no other
 * module imports it), so a cold start no longer loads Node's web streams (docs/operations.md,
 * "Cold starts"). A named import of any other export fails the build.
 */

type NodeReadableStream = typeof import('node:stream/web').ReadableStream;

/** `new ReadableStream(...)` makes Node's own; `instanceof` asks Node's class. */
class LazyReadableStream {
  constructor(...args: ConstructorParameters<NodeReadableStream>) {
    // A constructor that returns an object answers `new` with it: Node's own stream.
    // biome-ignore lint/correctness/noConstructorReturn: the stand-in makes the real class's instance.
    return new (process.getBuiltinModule('node:stream/web').ReadableStream)(...args);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof process.getBuiltinModule('node:stream/web').ReadableStream;
  }
}

export const ReadableStream = LazyReadableStream as unknown as NodeReadableStream;
