/**
 * An application's end users (docs/api.md "Users"): the list by address, paged by `limit` and
 * `offset`, or the users whose address or name starts with the search, each linking to its screen.
 * The search and the page are in the URL, so back, forward and reload keep them.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Answer, call } from '../api.ts';
import { ApplicationFrame } from '../frames.tsx';
import { href, navigate } from '../router.ts';
import type { ScreenProps } from '../screens.ts';
import { Empty, Field, Link, Show, TableBox, useLoad, when } from '../ui.tsx';
import { offsetOf, PAGE_SIZE, Pager, withQuery } from './users-parts.tsx';

type User = Answer<'listUsers'>['items'][number];

function UsersTable(props: { applicationId: string; users: readonly User[] }) {
  return (
    <TableBox label="Users">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {props.users.map((user) => (
            <tr key={user.id}>
              <td>
                <Link href={href('applications', props.applicationId, 'users', user.id)}>{user.email}</Link>
              </td>
              <td>{user.name ?? '—'}</td>
              <td>{user.disabled ? 'Disabled' : 'Active'}</td>
              <td>{when(user.lastSignInAt)}</td>
              <td>{when(user.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

/**
 * The search form: Search users, and Clear while a search shows. It stays mounted from one search to
 * the next, so the focus stays in it; the text follows the URL's `q` when back or forward changes it.
 */
function SearchForm(props: { q: string; error: unknown; onSearch: (q: string) => void }) {
  const [typed, setTyped] = useState(props.q);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setTyped(props.q), [props.q]);
  return (
    <search>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          props.onSearch(typed.trim());
        }}
      >
        <Field
          label="Search users"
          ref={input}
          type="search"
          value={typed}
          maxLength={120}
          autoComplete="off"
          field="q"
          error={props.error}
          hint="The start of an address or of a name, in any letter case."
          onInput={(event) => setTyped((event.target as HTMLInputElement).value)}
        />
        <div class="buttons">
          <button type="submit">Search</button>
          {props.q && (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setTyped('');
                props.onSearch('');
                // The button goes with the search: the focus goes back to the input, not to the page.
                input.current?.focus();
              }}
            >
              Clear search
            </button>
          )}
        </div>
      </form>
    </search>
  );
}

function UserList(props: { applicationId: string; q: string; offset: number }) {
  const { applicationId, q, offset } = props;
  const page = { limit: String(PAGE_SIZE), offset: String(offset) };
  const loaded = useLoad(
    () =>
      q
        ? call('searchUsers', { params: { applicationId }, query: { q, ...page } })
        : call('listUsers', { params: { applicationId }, query: page }),
    [applicationId, q, offset],
  );
  const base = href('applications', applicationId, 'users');
  const to = (next: { q?: string; offset?: number }) => withQuery(base, { q: next.q, offset: next.offset });
  return (
    <>
      <SearchForm
        q={q}
        error={loaded.state === 'error' ? loaded.error : undefined}
        onSearch={(next) => navigate(to({ q: next }))}
      />
      <h2>{q ? `Users whose address or name starts with “${q}”` : 'All users'}</h2>
      <Show loaded={loaded} what={q ? 'the search' : 'the users'}>
        {(list) => (
          <>
            {list.items.length === 0 ? (
              <Empty>
                {q
                  ? `No user's address or name starts with “${q}”.`
                  : 'No users yet: an address becomes a user at its first sign-in.'}
              </Empty>
            ) : (
              <UsersTable applicationId={applicationId} users={list.items} />
            )}
            <Pager
              page={list.page}
              shown={list.items.length}
              label="Pages of users"
              to={(next) => to({ q, offset: next })}
            />
          </>
        )}
      </Show>
    </>
  );
}

export default function Users(props: ScreenProps) {
  const applicationId = props.params.applicationId ?? '';
  const q = props.query.get('q')?.trim() ?? '';
  return (
    <ApplicationFrame
      applicationId={applicationId}
      tab="Users"
      title={(application) => `Users of ${application.name}`}
    >
      {() => (
        <>
          <UserList applicationId={applicationId} q={q} offset={offsetOf(props.query)} />
        </>
      )}
    </ApplicationFrame>
  );
}
