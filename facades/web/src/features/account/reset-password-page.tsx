import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { Callout } from '../../components/status';
import { TextField } from '../../components/text-field';
import { authClient } from '../../lib/auth-client';
import { forgetSession } from '../../lib/session';
import { authFailureMessage, callAuth } from '../../lib/auth-call';

const MIN_PASSWORD_LENGTH = 8;

/** The page a reset e-mail's link opens (/reset-password?token=…): a new password, then sign in with it. */
export function ResetPasswordPage() {
  useDocumentTitle('Reset password');
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'));
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mismatch, setMismatch] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get('password') ?? '');
    if (newPassword !== String(form.get('confirm') ?? '')) {
      setMismatch('The two passwords differ.');
      return;
    }
    setPending(true);
    setError(null);
    const res = await callAuth(() => authClient.resetPassword({ newPassword, token: token ?? '' }));
    setPending(false);
    if (res.error) {
      setError(
        res.error.code === 'INVALID_TOKEN'
          ? 'This link is no longer valid (it works once, for one hour). Ask for a new one.'
          : authFailureMessage(res.error),
      );
      return;
    }
    // Every session of the account ended with the reset, this browser's included.
    forgetSession();
    setDone(true);
  }

  return (
    <section className="page auth-page" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      {!token ? (
        <div className="callout callout-error" role="alert">
          <strong>This link has no reset token</strong>
          <p>
            Open the link from the e-mail as it is, or <Link to="/forgot-password">ask for a new one</Link>.
          </p>
        </div>
      ) : done ? (
        <div role="status">
          <Callout tone="success" title="Your password was changed">
            <p>
              Every session of your account was signed out. <Link to="/sign-in">Sign in</Link> with the new password.
            </p>
          </Callout>
        </div>
      ) : (
        <div onInput={() => mismatch && setMismatch(null)}>
          <Form
            className="form card"
            onSubmit={(event) => void submit(event)}
            validationErrors={mismatch ? { confirm: mismatch } : {}}
          >
            {error && (
              <div className="callout callout-error" role="alert">
                {error} <Link to="/forgot-password">Ask for a new link</Link>
              </div>
            )}
            <TextField
              name="password"
              label="New password"
              type="password"
              isRequired
              minLength={MIN_PASSWORD_LENGTH}
              maxLength={128}
              autoComplete="new-password"
              description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            />
            <TextField
              name="confirm"
              label="Repeat the new password"
              type="password"
              isRequired
              maxLength={128}
              autoComplete="new-password"
            />
            <Button type="submit" variant="primary" isPending={pending}>
              Set new password
            </Button>
          </Form>
        </div>
      )}
    </section>
  );
}
