/**
 * What the paged lists and the forms of the screens share: paging by `limit` and `offset` kept in the
 * URL (docs/api.md "Management API"), so a page can be bookmarked and back and forward move between
 * pages; a list of URLs typed one a line; and a form's error with the issues no field of it shows.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { type Answer, ApiError } from '../api.ts';
import { navigate } from '../router.ts';
import { ErrorNote } from '../ui.tsx';

/** Rows per page of the paged lists (the API's default `limit`). */
export const PAGE_SIZE = 20;

/** The offset the URL's query names (`?offset=`), 0 when none or not a number. */
export const offsetOf = (query: URLSearchParams): number => {
  const offset = Number(query.get('offset') ?? 0);
  return Number.isInteger(offset) && offset > 0 ? offset : 0;
};

/** `path` with `params` as its query; empty values are left out. */
export const withQuery = (path: string, params: Record<string, string | number | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '' && value !== 0) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

/** A list's page as the API answers it (docs/api.md "Management API"). */
type PageInfo = Pick<Answer<'listUsers'>['page'], 'limit' | 'offset' | 'total' | 'hasMore'>;

/**
 * Previous and Next of a paged list, with where the shown rows stand; each a URL (`to`) of the page it
 * shows, so back and forward move between pages. `total` may be null (a search past what one answer
 * reads, docs/api.md "Users"): `hasMore` alone then says whether more follow. Nothing when it all fits
 * one page.
 */
export function Pager(props: {
  page: PageInfo;
  shown: number;
  label: string;
  to: (offset: number) => string;
}) {
  const { page, shown } = props;
  const more = page.hasMore ?? (page.total !== null && page.offset + shown < page.total);
  if (page.offset === 0 && !more) return null;
  const first = shown === 0 ? page.offset : page.offset + 1;
  const last = page.offset + shown;
  return (
    <nav class="pager" aria-label={props.label}>
      <button
        type="button"
        class="secondary"
        disabled={page.offset === 0}
        onClick={() => navigate(props.to(Math.max(0, page.offset - page.limit)))}
      >
        Previous
      </button>
      <span class="muted">
        {first}–{last}
        {page.total === null ? '' : ` of ${page.total}`}
      </span>
      <button
        type="button"
        class="secondary"
        disabled={!more}
        onClick={() => navigate(props.to(page.offset + page.limit))}
      >
        Next
      </button>
    </nav>
  );
}

/** The lines of a text area, trimmed, empty ones left out. */
export const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * The messages of `error`'s issues at `field` or one of its items (`field.2`), an item's prefixed
 * with its line.
 */
function listIssues(error: unknown, field: string): string[] {
  if (!(error instanceof ApiError)) return [];
  return error.issues.flatMap((issue) => {
    const { path } = issue;
    if (path === field) return [issue.message];
    const index = path.startsWith(`${field}.`) ? Number(path.slice(field.length + 1)) : Number.NaN;
    return Number.isInteger(index) ? [`Line ${index + 1}: ${issue.message}`] : [];
  });
}

/** The dotted paths a list field's issues may name: the list and each of its `max` items. */
export const listPaths = (field: string, max: number): string[] => [
  field,
  ...Array.from({ length: max }, (_, index) => `${field}.${index}`),
];

/** A labelled text area of one value a line, with the API's messages for the list and its items. */
export function ListField(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  error: unknown;
  field: string;
  hint?: ComponentChildren;
}) {
  const id = useId();
  const messages = listIssues(props.error, props.field);
  const described = [props.hint ? `${id}-hint` : '', messages.length ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        rows={3}
        value={props.value}
        spellcheck={false}
        autoComplete="off"
        aria-invalid={messages.length ? true : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => props.onInput((event.target as HTMLTextAreaElement).value)}
      />
      {props.hint && (
        <p id={`${id}-hint`} class="hint">
          {props.hint}
        </p>
      )}
      {messages.length > 0 && (
        <p id={`${id}-error`} class="field-error">
          {messages.join(' ')}
        </p>
      )}
    </div>
  );
}

/**
 * A refused form's error above its fields, with the issues no field of the form shows (so none is
 * lost when the API names a key the form has no field for).
 */
export function FormError(props: { error: unknown; fields: readonly string[] }) {
  if (props.error === undefined) return null;
  const others =
    props.error instanceof ApiError
      ? props.error.issues.filter((issue) => !props.fields.includes(issue.path))
      : [];
  return (
    <>
      <ErrorNote error={props.error} />
      {others.length > 0 && (
        <ul class="field-error">
          {others.map((issue) => (
            <li key={issue.path}>
              {issue.path ? <code>{issue.path}</code> : null}
              {issue.path ? ': ' : ''}
              {issue.message}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
