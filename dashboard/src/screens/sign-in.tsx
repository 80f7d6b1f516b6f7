/**
 * Sign-in by code (docs/api.md "Endpoints"): the email gets a code and the screen shows the request
 * phrase, the two words the email shows too, so the owner signs in only the request they made. The
 * answer of verify sets the HttpOnly session cookie; the screen keeps no token.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { checkSession } from '../session.ts';
import { ErrorNote, Field, Page, useSubmit } from '../ui.tsx';

/** XXXX-XXXX, as the email shows it; the service accepts it with or without the dash and in any case. */
const CODE_PATTERN = '[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}';

export default function SignIn() {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<{ email: string; phrase: string } | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  const start = useSubmit(() => call('codeStart', { body: { email } }), {
    fields: ['email'],
    onDone: (result) => {
      setSent({ email, phrase: result.phrase });
      setCode('');
    },
  });
  const verify = useSubmit(
    async () => {
      await call('codeVerify', { body: { email: sent?.email ?? email, code } });
      const after = await checkSession();
      if (after.state === 'signed-out') {
        throw new Error(
          'The code was right, but this browser kept no session: allow cookies for this site and sign in again.',
        );
      }
    },
    { fields: ['code'] },
  );

  useEffect(() => {
    if (sent) codeInput.current?.focus();
  }, [sent]);

  // The fifth wrong code destroys the request, and an expired one is gone: back to the email step.
  const requestGone =
    verify.error instanceof ApiError &&
    (verify.error.code === 'TOO_MANY_ATTEMPTS' || verify.error.status === 410);
  const attemptsLeft =
    verify.error instanceof ApiError && typeof verify.error.details.attemptsLeft === 'number'
      ? verify.error.details.attemptsLeft
      : undefined;

  return (
    <div class="narrow">
      <Page title="Sign in to the dashboard">
        {!sent ? (
          <form onSubmit={start.submit} noValidate>
            <p>We email you a code. The first code you use creates your account.</p>
            <Field
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              required
              value={email}
              error={start.error}
              field="email"
              onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
            />
            {start.formError !== undefined && <ErrorNote error={start.formError} />}
            <button type="submit" disabled={start.busy}>
              Send code
            </button>
          </form>
        ) : (
          <form onSubmit={verify.submit} noValidate>
            <p>
              We sent a code to <strong>{sent.email}</strong>. Check that your email shows the same two words:
            </p>
            <p class="phrase">{sent.phrase}</p>
            <Field
              label="Code"
              name="code"
              ref={codeInput}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellcheck={false}
              pattern={CODE_PATTERN}
              placeholder="XXXX-XXXX"
              required
              value={code}
              error={verify.error}
              field="code"
              hint="8 characters, valid for 10 minutes."
              onInput={(event) => setCode((event.target as HTMLInputElement).value)}
            />
            {verify.formError !== undefined && <ErrorNote error={verify.formError} />}
            {attemptsLeft !== undefined && (
              <p class="hint">
                {attemptsLeft} {attemptsLeft === 1 ? 'attempt' : 'attempts'} left.
              </p>
            )}
            <div class="buttons">
              <button type="submit" disabled={verify.busy || requestGone}>
                Sign in
              </button>
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  setSent(null);
                  verify.clear();
                }}
              >
                {requestGone ? 'Send a new code' : 'Use another email'}
              </button>
            </div>
          </form>
        )}
      </Page>
    </div>
  );
}
