/** A request target split as API Gateway reads it: the path exactly as sent, and the query string. */
interface RequestTarget {
  readonly path: string;
  readonly query: string;
}

/**
 * Splits the request target at its first `?`, and nothing else. API Gateway matches routes on the
 * path as sent: it neither resolves `.` and `..` segments nor reads a host from a leading `//`, as
 * `new URL(target, base)` would, so `/.well-known/../auth/session` and `//evil.test/auth/session`
 * name no route.
 */
export function splitTarget(target: string): RequestTarget {
  const mark = target.indexOf('?');
  return mark < 0
    ? { path: target, query: '' }
    : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}
