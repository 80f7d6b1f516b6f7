/**
 * The impersonation this browser holds, above every screen while it runs (15 minutes at most,
 * docs/api.md "Impersonation"): whom, why, the time left, and End impersonation, which
 * `POST /impersonation/{id}/end` authorizes by the impersonation cookie. It comes from the session
 * (`GET /auth/session` names it), so it survives a reload. A region rather than a live one: the
 * countdown would be read out every second.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { call } from './api.ts';
import { href } from './router.ts';
import { checkSession, useImpersonation } from './session.ts';
import { Done, ErrorNote, Link, useSubmit } from './ui.tsx';

/** Milliseconds as mm:ss. */
const clock = (ms: number): string => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
};

/** The time left until `iso`, updated each second. */
function useTimeLeft(iso: string | undefined): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!iso) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [iso]);
  return iso ? Date.parse(iso) - now : 0;
}

export function ImpersonationBanner() {
  const current = useImpersonation();
  const left = useTimeLeft(current?.expiresAt);
  const id = useId();
  const [ended, setEnded] = useState('');
  const end = useSubmit(async () => {
    if (!current) return;
    await call('endImpersonation', { params: { id: current.id } });
    setEnded(`The impersonation of ${current.user.email} ended.`);
    await checkSession();
  });
  const lapsed = current !== null && left <= 0;
  useEffect(() => {
    if (!lapsed || !current) return;
    // The service ends it at its 15 minutes, and the cookie expires with it.
    setEnded(`The impersonation of ${current.user.email} lapsed at its 15 minutes.`);
    void checkSession();
  }, [lapsed]);
  if (!current || lapsed) {
    return ended ? (
      <div class="shell-note">
        <Done>{ended}</Done>
      </div>
    ) : null;
  }
  return (
    <section class="banner impersonation" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`}>
        <strong>
          You are impersonating{' '}
          <Link href={href('applications', current.applicationId, 'users', current.user.id)}>
            {current.user.email}
          </Link>
        </strong>
      </p>
      <p>Reason: {current.reason}</p>
      <p>
        Time left: <span role="timer">{clock(left)}</span>
      </p>
      <p class="hint">
        Until it ends, this browser is {current.user.email} to the application's own routes (sign-in, session,
        profile); the console's management works on.
      </p>
      <button type="button" disabled={end.busy} onClick={() => void end.submit()}>
        End impersonation
      </button>
      {end.formError !== undefined && <ErrorNote error={end.formError} />}
    </section>
  );
}
