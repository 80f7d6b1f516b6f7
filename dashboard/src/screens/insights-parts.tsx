/**
 * Pieces the insights, audit trail and account screens share: a labelled `<select>` whose choice
 * lives in the screen's URL (so a filtered view can be bookmarked and reloaded), a table box that
 * scrolls by keyboard too, and a day written for people.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { navigate } from '../router.ts';

export interface Option {
  readonly value: string;
  readonly label: string;
}

/** A `<select>` with its `<label>`: a screen reader reads its name and its choice together. */
export function Choice(props: {
  label: string;
  value: string;
  options: readonly Option[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div class="field choice">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Shows the current screen with its query parameter `name` set to `value` (removed when empty),
 * replacing the history entry: a filter is a view of one screen, not a step back can undo.
 */
export function setQuery(query: URLSearchParams, name: string, value: string): void {
  const next = new URLSearchParams(query);
  if (value) next.set(name, value);
  else next.delete(name);
  const text = next.toString();
  navigate(location.pathname + (text ? `?${text}` : ''), { replace: true });
}

const dayFormat = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', dateStyle: 'medium' });

/** A UTC day (`YYYY-MM-DD`, docs/api.md "Insights: statistics") in the reader's locale. */
export const dayLabel = (day: string): string => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** `n` and the noun, singular or plural: "1 session", "3 sessions", "2 entries". */
export const count = (n: number, noun: string, plural = `${noun}s`): string =>
  `${n} ${n === 1 ? noun : plural}`;

/**
 * A table's box (`table-wrap`), which scrolls sideways when the table is wider than the screen. While
 * it does, it is a named region in the tab order, so a keyboard can scroll it too (WCAG 2.1.1,
 * https://www.w3.org/WAI/WCAG22/Understanding/keyboard.html); while the table fits, it is neither.
 */
export function TableBox(props: { label: string; children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return (
    <div
      class="table-wrap"
      ref={box}
      {...(scrolls ? { role: 'region', 'aria-label': props.label, tabIndex: 0 } : {})}
    >
      {props.children}
    </div>
  );
}
