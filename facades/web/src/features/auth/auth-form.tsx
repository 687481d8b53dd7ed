import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useDocumentTitle } from '../../components/document-title';
import { authClient } from '../../lib/auth-client';
import { useSessionChange } from '../../lib/session-change';
import { authProblem, retryAfterOf, type AuthFailure, type AuthProblem } from './auth-error';

const NO_PROBLEM: AuthProblem = { form: null, fields: {} };
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
    let retryAfter: number | null = null;
    const fetchOptions = { onError: (ctx: { response: Response }) => void (retryAfter = retryAfterOf(ctx.response)) };
    const unreachable = (err: unknown) => ({
      data: null,
      error: { status: 0, message: `The server could not be reached (${String(err)}).` },
    });
    const result = signUp
      ? await authClient.signUp.email({ email, password, name, fetchOptions }).catch(unreachable)
      : await authClient.signIn.email({ email, password, fetchOptions }).catch(unreachable);
    setPending(false);
    if (result.error) {
      setProblem(authProblem(result.error as AuthFailure, retryAfter));
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
      </Form>
      <p className="auth-switch">
        {signUp ? (
          <>
            Already have an account? <Link to="/sign-in">Sign in</Link>
          </>
        ) : (
          <>
            New here? <Link to="/sign-up">Create an account</Link>
          </>
        )}
      </p>
    </section>
  );
}
