import { type FormEvent, useEffect, useRef, useState } from 'react';
import { session } from '../api/session.ts';
import { ErrorMessage } from '../components/status.tsx';
import { Link, navigate } from '../lib/router.tsx';

const AFTER_SIGN_IN = '/buildings';

/** Sign in, or sign up (then sign in): e-mail and password. */
export function SignInPage({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const signUp = mode === 'sign-up';

  useEffect(() => {
    document.title = `${signUp ? 'Sign up' : 'Sign in'} · Utility Management Console`;
  }, [signUp]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    performance.mark('sign-in');
    try {
      if (signUp) await session.signUp(email, password);
      else await session.signIn(email, password);
      if (['/', '/sign-in', '/sign-up'].includes(window.location.pathname)) navigate(AFTER_SIGN_IN, { replace: true });
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
      heading.current?.focus();
    }
  };

  return (
    <main id="main">
      <form className="form-card" onSubmit={submit} aria-labelledby="sign-in-heading">
        <h1 id="sign-in-heading" ref={heading} tabIndex={-1}>
          {signUp ? 'Create an account' : 'Sign in'}
        </h1>
        {error && <ErrorMessage error={error} />}
        <div className="field">
          <label htmlFor="email">E-mail</label>
          <input
            id="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input
            id="password"
            type="password"
            autoComplete={signUp ? 'new-password' : 'current-password'}
            required
            minLength={signUp ? 8 : undefined}
            maxLength={128}
            aria-describedby={signUp ? 'password-help' : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {signUp && (
            <p id="password-help" className="muted" style={{ margin: '0.2rem 0 0' }}>
              8 to 128 characters.
            </p>
          )}
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Please wait…' : signUp ? 'Sign up' : 'Sign in'}
        </button>
        <p>
          {signUp ? (
            <>
              Have an account? <Link href="/sign-in">Sign in</Link>
            </>
          ) : (
            <>
              New here? <Link href="/sign-up">Create an account</Link>
            </>
          )}
        </p>
      </form>
    </main>
  );
}
