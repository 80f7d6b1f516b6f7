/**
 * The console: who is signed in decides between the sign-in screen and the others; the URL decides
 * the screen. A signed-out visitor of any screen signs in and comes back to it.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from './api.ts';
import { ImpersonationBanner } from './impersonation.tsx';
import { BASE, href, match, navigate, useLocation } from './router.ts';
import SignIn from './screens/sign-in.tsx';
import { type ScreenProps, screens } from './screens.ts';
import { checkSession, signedOut, useSession } from './session.ts';
import { ErrorNote, Link, Page } from './ui.tsx';

const SIGN_IN = `${BASE}/sign-in`;
const HOME = `${BASE}/organizations`;

/** Loads a screen's module once; shows its loading and error states meanwhile. */
function LazyScreen(props: { load: () => Promise<{ default: ComponentType<ScreenProps> }> } & ScreenProps) {
  const [loaded, setLoaded] = useState<{ Screen?: ComponentType<ScreenProps>; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    setLoaded({});
    props.load().then(
      (module) => live && setLoaded({ Screen: module.default }),
      (error: unknown) => live && setLoaded({ error }),
    );
    return () => {
      live = false;
    };
  }, [props.load]);
  if (loaded.error) {
    return (
      <Page title="Could not load this screen">
        <ErrorNote error={loaded.error} onRetry={() => location.reload()} />
      </Page>
    );
  }
  if (!loaded.Screen) {
    return (
      <Page title="Loading…">
        <p role="status" class="muted">
          Loading…
        </p>
      </Page>
    );
  }
  return <loaded.Screen params={props.params} query={props.query} />;
}

function Header(props: { email: string }) {
  const [error, setError] = useState<unknown>(undefined);
  const signOut = async () => {
    try {
      await call('signOut');
      signedOut();
      navigate(SIGN_IN);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <header class="top">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Link href={HOME} class="brand">
        Dashboard
      </Link>
      <nav aria-label="Main">
        <ul>
          <li>
            <Link href={HOME}>Organizations</Link>
          </li>
          <li>
            <Link href={href('account')}>My account</Link>
          </li>
        </ul>
      </nav>
      <span class="who">{props.email}</span>
      <button type="button" class="secondary" onClick={signOut}>
        Sign out
      </button>
      {error !== undefined && <ErrorNote error={error} />}
    </header>
  );
}

function NotFound() {
  return (
    <Page title="No such screen">
      <p>
        This address names no screen of the dashboard. <Link href={HOME}>Go to your organizations</Link>.
      </p>
    </Page>
  );
}

export function App() {
  const session = useSession();
  const where = useLocation();

  useEffect(() => {
    void checkSession();
  }, []);

  // Signed out: every screen but sign-in goes there, and comes back after.
  useEffect(() => {
    if (session.state === 'signed-out' && where.path !== SIGN_IN) {
      const next =
        where.path === BASE
          ? ''
          : `?next=${encodeURIComponent(where.path + (where.query.size ? `?${where.query}` : ''))}`;
      navigate(SIGN_IN + next, { replace: true });
    }
    if (session.state === 'signed-in' && (where.path === BASE || where.path === SIGN_IN)) {
      navigate(safeNext(where.query.get('next')), { replace: true });
    }
  }, [session.state, where.path]);

  if (session.state === 'checking') {
    return (
      <main id="main">
        <h1>Dashboard</h1>
        <p role="status" class="muted">
          Checking your session…
        </p>
      </main>
    );
  }
  if (session.state === 'unknown') {
    return (
      <Page title="Dashboard">
        <p>The service could not say who is signed in.</p>
        <ErrorNote error={session.error} onRetry={() => void checkSession()} />
      </Page>
    );
  }
  if (session.state === 'signed-out') return <SignIn />;

  const found = screens
    .map((screen) => ({ screen, params: match(screen.pattern, where.path) }))
    .find((entry) => entry.params);
  return (
    <>
      <Header email={session.user.email} />
      {session.error !== undefined && (
        <div class="shell-note">
          <ErrorNote error={session.error} onRetry={() => void checkSession()} />
        </div>
      )}
      <ImpersonationBanner />
      {found?.params ? (
        // Keyed by its path: another screen, or the same one of another id, starts afresh.
        <LazyScreen key={where.path} load={found.screen.load} params={found.params} query={where.query} />
      ) : where.path === BASE || where.path === SIGN_IN ? null : (
        <NotFound />
      )}
    </>
  );
}

/** Where to go after signing in: a console path only, as the browser resolves it (no `..` out of it). */
function safeNext(next: string | null): string {
  if (!next) return HOME;
  try {
    const url = new URL(next, location.origin);
    return url.origin === location.origin && url.pathname.startsWith(`${BASE}/`)
      ? url.pathname + url.search
      : HOME;
  } catch {
    return HOME;
  }
}
