/**
 * The console's building blocks: a page with its one `main` and `h1`, the loading, empty and error
 * states every list has, fields that show the API's own message beside them, and the confirmation
 * every destructive action asks for.
 */
import type {
  AnchorHTMLAttributes,
  ComponentChildren,
  InputHTMLAttributes,
  LooseInputHTMLAttributes,
  Ref,
} from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import { isModifiedClick, navigate } from './router.ts';

/** A link inside the console: followed without reloading the page, unless opened elsewhere. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const { href, onClick, ...rest } = props;
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (onClick) (onClick as (event: MouseEvent) => void)(event);
        if (event.defaultPrevented || isModifiedClick(event)) return;
        event.preventDefault();
        navigate(href);
      }}
    />
  );
}

export interface Crumb {
  readonly label: string;
  readonly href: string;
}

/**
 * A screen: breadcrumbs, the one `h1` (focused when the screen opens, so a screen reader announces
 * it), and the screen's content, inside the page's `main` landmark.
 */
export function Page(props: {
  title: string;
  crumbs?: readonly Crumb[];
  actions?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · Dashboard`;
  }, [props.title]);
  // A new screen takes the focus to its heading, so a screen reader announces it; a change of title on
  // the same screen (a rename) leaves the focus where the user is.
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <main id="main">
      {props.crumbs && props.crumbs.length > 0 && (
        <nav aria-label="Breadcrumb" class="crumbs">
          <ol>
            {props.crumbs.map((crumb) => (
              <li key={crumb.href}>
                <Link href={crumb.href}>{crumb.label}</Link>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <div class="page-head">
        <h1 tabIndex={-1} ref={heading}>
          {props.title}
        </h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </div>
      {props.children}
    </main>
  );
}

/** An error as the API gave it: its message, and its code for a support request. */
export function ErrorNote(props: { error: unknown; onRetry?: () => void }) {
  const error = props.error;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <div role="alert" class="error-note">
      <p>
        {message}
        {code && <span class="code"> ({code})</span>}
      </p>
      {props.onRetry && (
        <button type="button" class="secondary" onClick={props.onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export type Loaded<T> =
  | { readonly state: 'loading'; readonly reload: () => void }
  | { readonly state: 'error'; readonly error: unknown; readonly reload: () => void }
  | { readonly state: 'ready'; readonly data: T; readonly reload: () => void };

/** Loads `load()` now and whenever `keys` change; `reload` loads it again. */
export function useLoad<T>(load: () => Promise<T>, keys: readonly unknown[]): Loaded<T> {
  // Each state remembers the keys it was loaded for: one of other keys (another id, another search,
  // another page) is never shown as theirs, not even for the render before the new load starts.
  const [state, setState] = useState<
    | { state: 'loading'; keys?: undefined }
    | { state: 'error'; error: unknown; keys: readonly unknown[] }
    | { state: 'ready'; data: T; keys: readonly unknown[] }
  >({ state: 'loading' });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    const loading = keys;
    load().then(
      (data) => live && setState({ state: 'ready', data, keys: loading }),
      (error: unknown) => live && setState({ state: 'error', error, keys: loading }),
    );
    return () => {
      live = false;
    };
  }, [...keys, round]);
  const current =
    state.keys !== undefined &&
    state.keys.length === keys.length &&
    keys.every((key, index) => Object.is(key, state.keys?.[index]));
  // A reload keeps showing what it had until the new answer comes.
  if (!current) return { state: 'loading', reload };
  return state.state === 'ready'
    ? { state: 'ready', data: state.data, reload }
    : state.state === 'error'
      ? { state: 'error', error: state.error, reload }
      : { state: 'loading', reload };
}

/** The loading and error states of `loaded`, else `children` with its data. */
export function Show<T>(props: {
  loaded: Loaded<T>;
  what: string;
  /** The states stand for a whole screen: each in a page of its own, with its `main` and `h1`. */
  page?: boolean;
  children: (data: T) => ComponentChildren;
}) {
  const { loaded } = props;
  const wrap = (title: string, content: ComponentChildren) =>
    props.page ? <Page title={title}>{content}</Page> : content;
  if (loaded.state === 'loading') {
    return wrap(
      'Loading…',
      <p role="status" class="muted">
        Loading {props.what}…
      </p>,
    );
  }
  if (loaded.state === 'error') {
    return wrap(`Could not load ${props.what}`, <ErrorNote error={loaded.error} onRetry={loaded.reload} />);
  }
  return <>{props.children(loaded.data)}</>;
}

/** What an empty list shows. */
export const Empty = (props: { children: ComponentChildren }) => <p class="empty">{props.children}</p>;

/** The messages of `error`'s `details.issues` for the body field `field` (a dotted path). */
function issuesFor(error: unknown, field: string): string[] {
  if (!(error instanceof ApiError)) return [];
  return error.issues.filter((issue) => issue.path === field).map((issue) => issue.message);
}

/** Whether any issue of `error` names one of `fields`: the form shows those beside the field, not above. */
const namesField = (error: unknown, fields: readonly string[]): boolean =>
  error instanceof ApiError &&
  error.issues.length > 0 &&
  error.issues.every((issue) => fields.includes(issue.path));

/**
 * A form that calls the API: it disables itself while the call runs, and shows the API's error
 * above the fields unless every issue of it belongs to a field (`fields`), which shows it beside.
 */
export function useSubmit<T>(
  action: () => Promise<T>,
  options: { fields?: readonly string[]; onDone?: (result: T) => void } = {},
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const submit = async (event?: Event) => {
    event?.preventDefault();
    const form = event?.currentTarget instanceof HTMLElement ? event.currentTarget : document;
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const result = await action();
      options.onDone?.(result);
    } catch (caught) {
      setError(caught);
      // A refusal of fields only is shown beside them, not in an alert: the focus goes to the first,
      // whose message is its description, so a screen reader hears it.
      if (caught instanceof ApiError && caught.issues.length > 0) {
        setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      }
    } finally {
      setBusy(false);
    }
  };
  const formError = error !== undefined && !namesField(error, options.fields ?? []) ? error : undefined;
  return { busy, error, formError, submit, clear: () => setError(undefined) };
}

/** A labelled input with its hint and the API's messages for it. */
export function Field(
  props: {
    label: string;
    error?: unknown;
    /** The body field the API names in `details.issues` (dotted path). */
    field?: string;
    hint?: ComponentChildren;
    ref?: Ref<HTMLInputElement>;
  } & Omit<LooseInputHTMLAttributes<HTMLInputElement>, 'label'>,
) {
  const { label, error, field, hint, ...input } = props;
  const id = useId();
  const messages = field ? issuesFor(error, field) : [];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = messages.length ? `${id}-error` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        // The loose attributes allow any `type`; the strict ones tie `role` to it, which no field sets.
        {...(input as InputHTMLAttributes<HTMLInputElement>)}
        aria-invalid={messages.length ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
      />
      {hint && (
        <p id={hintId} class="hint">
          {hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} class="field-error">
          {messages.join(' ')}
        </p>
      )}
    </div>
  );
}

/**
 * A destructive action asks first: a dialog that says what will be lost and, for what cannot be
 * undone at scale (an organization, an application, a user), wants its name typed.
 */
export function Confirm(props: {
  title: string;
  /** What is lost. */
  children: ComponentChildren;
  /** The name to type; absent: a plain confirmation. */
  typeToConfirm?: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const { busy, formError, submit } = useSubmit(props.onConfirm);
  useEffect(() => {
    const element = dialog.current;
    // The control that opened the dialog gets the focus back when it closes.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    // Without a name to type, the safe choice has the focus: Enter alone never destroys.
    if (props.typeToConfirm === undefined) cancel.current?.focus();
    return () => {
      if (element?.open) element.close();
      // After the change, the opener may be gone with its row: the screen's heading takes the focus.
      setTimeout(() => {
        if (opener?.isConnected) opener.focus();
        else document.querySelector<HTMLElement>('main h1')?.focus();
      });
    };
  }, []);
  const ready = props.typeToConfirm === undefined || typed === props.typeToConfirm;
  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        // Escape while the change runs would hide a change that still happens.
        event.preventDefault();
        if (!busy) props.onCancel();
      }}
      onClose={() => {
        // A second Escape closes a dialog whatever `cancel` said: open it again while the change runs.
        if (busy) dialog.current?.showModal();
      }}
      class="confirm"
    >
      <form onSubmit={submit}>
        <h2 id="confirm-title">{props.title}</h2>
        <div>{props.children}</div>
        {props.typeToConfirm !== undefined && (
          <Field
            label={`Type ${props.typeToConfirm} to confirm`}
            value={typed}
            autoComplete="off"
            onInput={(event) => setTyped((event.target as HTMLInputElement).value)}
          />
        )}
        {formError !== undefined && <ErrorNote error={formError} />}
        <div class="buttons">
          <button type="submit" class="danger" disabled={!ready || busy}>
            {props.confirmLabel}
          </button>
          <button type="button" class="secondary" ref={cancel} disabled={busy} onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}

/**
 * A button that asks first: it opens `Confirm` and closes it once the change is made (or cancelled).
 * For a single action; a table's row actions keep which row is asked about themselves.
 */
export function ConfirmButton(
  props: Omit<Parameters<typeof Confirm>[0], 'onCancel'> & { label: string; class?: 'danger' | 'secondary' },
) {
  const { label, class: kind = 'danger', onConfirm, ...confirm } = props;
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class={kind} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <Confirm
          {...confirm}
          onCancel={() => setOpen(false)}
          onConfirm={async () => {
            await onConfirm();
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

/** A date and time in the reader's locale; `—` for none. */
export const when = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** A short status line for a change that worked (`role="status"`, announced once). */
export function Done(props: { children: ComponentChildren }) {
  return (
    <p role="status" class="done">
      {props.children}
    </p>
  );
}

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
