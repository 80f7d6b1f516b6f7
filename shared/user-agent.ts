/**
 * The longest user agent the service keeps (on a session record, an audit entry's request): enough to
 * tell browsers and tools apart, bounded so a client cannot grow an item with it.
 */
export const USER_AGENT_CHARS = 512;

/** A user agent as the service keeps it. */
export const keptUserAgent = (userAgent: string): string => userAgent.slice(0, USER_AGENT_CHARS);
