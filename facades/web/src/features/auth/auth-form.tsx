import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useDocumentTitle } from '../../components/document-title';
import { useSessionChange } from '../../lib/session-change';
import { authProblem, retryAfterOf, type AuthFailure, type AuthProblem } from './auth-error';

const NO_PROBLEM: AuthProblem = { form: null, fields: {} };

/**
 * One of better-auth's e-mail endpoints (`sign-in/email`, `sign-up/email`) with a plain fetch, as better-auth's
 * client sends it: its error body is `{ code, message }` (ours, for a 429, `{ error, code }` with Retry-After).
 * better-auth's client is not loaded for this: the sign-in page is the first page of most visits, and stays light.
 */
async function callAuth(
  path: 'sign-in/email' | 'sign-up/email',
  body: Record<string, string>,
): Promise<{ error: AuthFailure | null; retryAfter: number | null }> {
  try {
    const res = await fetch(`/api/auth/${path}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.ok) return { error: null, retryAfter: null };
    const payload = (await res.json().catch(() => ({}))) as Omit<AuthFailure, 'status'>;
    return { error: { ...payload, status: res.status }, retryAfter: retryAfterOf(res) };
  } catch (err) {
    return { error: { status: 0, message: `The server could not be reached (${String(err)}).` }, retryAfter: null };
  }
}
export const MIN_PASSWORD_LENGTH = 8;

/** Sign-in and sign-up share the form: better-auth's endpoints, errors shown where they belong. */
export function AuthForm({ mode, redirectTo }: { mode: 'sign-in' | 'sign-up'; redirectTo?: string }) {
  const signUp = mode === 'sign-up';
  useDocumentTitle(signUp ? 'Sign up' : 'Sign in');
  const sessionChanged = useSessionChange();
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<AuthProblem>(NO_PROBLEM);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const email = String(data.get('email') ?? '').trim();
    const password = String(data.get('password') ?? '');
    const name = String(data.get('name') ?? '').trim();
    setPending(true);
    setProblem(NO_PROBLEM);
    const { error, retryAfter } = signUp
      ? // With mail configured, the address confirmation mail links back to where the visitor was going (without a
        // fragment: an invitation's secret stays out of mails and server logs).
        await callAuth('sign-up/email', {
          email,
          password,
          name,
          callbackURL: redirectTo?.split('#')[0] ?? '/projects',
        })
      : await callAuth('sign-in/email', { email, password });
    setPending(false);
    if (error) {
      setProblem(authProblem(error, retryAfter));
      return;
    }
    await sessionChanged(redirectTo ?? '/projects');
  }

  return (
    // The server's verdict holds until the user edits the form: a field it marks invalid would otherwise block the next
    // try.
    <section
      className="page auth-page"
      aria-labelledby="auth-title"
      onInput={() => problem !== NO_PROBLEM && setProblem(NO_PROBLEM)}
    >
      <h1 id="auth-title">{signUp ? 'Create your account' : 'Sign in'}</h1>
      <p className="muted">
        {signUp
          ? 'Your account comes with a personal organization for your projects.'
          : 'Welcome back. Sign in to see your projects.'}
      </p>
      <Form className="form card" onSubmit={(event) => void submit(event)} validationErrors={problem.fields}>
        {problem.form && (
          <div className="callout callout-error" role="alert">
            {problem.form}
          </div>
        )}
        {signUp && <TextField name="name" label="Name" isRequired autoComplete="name" maxLength={100} />}
        <TextField
          name="email"
          label="E-mail"
          type="email"
          isRequired
          autoComplete={signUp ? 'email' : 'username'}
          maxLength={254}
        />
        <TextField
          name="password"
          label="Password"
          type="password"
          isRequired
          minLength={signUp ? MIN_PASSWORD_LENGTH : undefined}
          maxLength={128}
          autoComplete={signUp ? 'new-password' : 'current-password'}
          description={signUp ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
        />
        <Button type="submit" variant="primary" isPending={pending}>
          {signUp ? 'Sign up' : 'Sign in'}
        </Button>
        {!signUp && (
          <p className="small">
            <Link to="/forgot-password">Forgot password?</Link>
          </p>
        )}
      </Form>
      <p className="auth-switch">
        {signUp ? (
          <>
            Already have an account?{' '}
            <Link to="/sign-in" search={redirectTo ? { redirect: redirectTo } : {}}>
              Sign in
            </Link>
          </>
        ) : (
          <>
            New here?{' '}
            <Link to="/sign-up" search={redirectTo ? { redirect: redirectTo } : {}}>
              Create an account
            </Link>
          </>
        )}
      </p>
    </section>
  );
}
