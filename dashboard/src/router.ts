/**
 * The console's routing: every screen is a URL under /dashboard that can be bookmarked and reloaded
 * (the route serves the page for any such path), and back and forward move between screens.
 */
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener('popstate', notify);

/** Goes to `to` (a path under /dashboard, with its query), adding a history entry unless `replace`. */
export function navigate(to: string, options: { replace?: boolean; notice?: string } = {}): void {
  if (to === location.pathname + location.search && options.notice === undefined) return;
  // A notice rides in the history entry, never in the URL: a link cannot put words in the console's mouth.
  const state = options.notice === undefined ? null : { notice: options.notice };
  if (options.replace) history.replaceState(state, '', to);
  else {
    history.pushState(state, '', to);
    // A new screen starts at its top; back and forward keep where the browser left them.
    scrollTo(0, 0);
  }
  notify();
}

/**
 * The notice the navigation to this history entry carried (a change another screen made), if any;
 * said once: a reload or a later visit to the entry does not say it again.
 */
export const notice = (): string | undefined => {
  const state: unknown = history.state;
  if (
    typeof state !== 'object' ||
    state === null ||
    typeof (state as { notice?: unknown }).notice !== 'string'
  ) {
    return undefined;
  }
  history.replaceState(null, '', location.href);
  return (state as { notice: string }).notice;
};

export interface Location {
  readonly path: string;
  readonly query: URLSearchParams;
}

const current = (): Location => ({
  path: location.pathname.replace(/\/+$/, '') || '/',
  query: new URLSearchParams(location.search),
});

/** The current location; the component renders again when it changes. */
export function useLocation(): Location {
  const [where, setWhere] = useState(current);
  useEffect(() => {
    const update = () => setWhere(current());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return where;
}

/** The parameters of `pattern` (`/dashboard/applications/:applicationId`) in `path`, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const actual = have[i] ?? '';
    if (segment.startsWith(':')) {
      if (!actual) return null;
      try {
        params[segment.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (segment !== actual) return null;
  }
  return params;
}

/** A console URL: /dashboard and the segments, each percent-encoded. */
export const href = (...segments: string[]): string =>
  [BASE, ...segments.map((segment) => encodeURIComponent(segment))].join('/');

/** A click a link should leave to the browser: another tab or window, a download. */
export const isModifiedClick = (event: MouseEvent): boolean =>
  event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
