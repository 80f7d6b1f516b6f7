import { useId } from 'preact/hooks';
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
