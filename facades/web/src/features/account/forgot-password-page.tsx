import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, Loading } from '../../components/status';
import { TextField } from '../../components/text-field';
import { MailEnabledDocument } from '../../gql/graphql';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';

/** Asks for a password-reset link by e-mail; without mail on the server, says who can reset it instead. */
export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const [mail] = useQuery({ query: MailEnabledDocument });
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setPending(true);
    setError(null);
    const res = await callAuth(() => authClient.requestPasswordReset({ email, redirectTo: '/reset-password' }));
    setPending(false);
    if (res.error) setError(authFailureMessage(res.error));
    else setSentTo(email);
  }

  return (
    <section className="page auth-page" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Forgot your password?</h1>
      {mail.fetching && !mail.data ? (
        <Loading />
      ) : mail.data && !mail.data.mailEnabled ? (
        <Callout tone="warning" title="This server does not send e-mail">
          <p>
            Password-reset links go out by e-mail, and no mail server is configured here (SMTP_URL). Ask the
            administrator of this installation to set a new password for you with{' '}
            <code>seo user set-password --email you@example.com --password …</code>, or to configure SMTP_URL.
          </p>
        </Callout>
      ) : sentTo ? (
        <div role="status">
          <Callout tone="success" title="Check your inbox">
            <p>
              If an account exists for {sentTo}, a link to choose a new password is on its way. It works once, for one
              hour.
            </p>
          </Callout>
        </div>
      ) : (
        <>
          <p className="muted">Enter your account’s e-mail address: we send you a link to choose a new password.</p>
          <Form className="form card" onSubmit={(event) => void submit(event)}>
            {error && (
              <div className="callout callout-error" role="alert">
                {error}
              </div>
            )}
            <TextField name="email" label="E-mail" type="email" isRequired autoComplete="username" maxLength={254} />
            <Button type="submit" variant="primary" isPending={pending}>
              Send reset link
            </Button>
          </Form>
        </>
      )}
      <p className="auth-switch">
        Remembered it? <Link to="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}
