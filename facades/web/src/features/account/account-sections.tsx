import { useState, type FormEvent, type ReactNode } from 'react';
import { Checkbox, Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/text-field';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import { useSessionChange } from '../../lib/session-change';

export const MIN_PASSWORD_LENGTH = 8;

/** One form section of the page, with its outcome announced. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card account-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function Outcome({ error, done }: { error: string | null; done: string | null }) {
  return (
    <>
      {error && (
        <div className="callout callout-error" role="alert">
          {error}
        </div>
      )}
      <p role="status" className="small">
        {done ?? ''}
      </p>
    </>
  );
}

export function PasswordSection() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [revokeOthers, setRevokeOthers] = useState(true);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setPending(true);
    setError(null);
    setDone(null);
    const res = await callAuth(() =>
      authClient.changePassword({
        currentPassword: String(data.get('currentPassword') ?? ''),
        newPassword: String(data.get('newPassword') ?? ''),
        revokeOtherSessions: revokeOthers,
      }),
    );
    setPending(false);
    if (res.error)
      return setError(
        res.error.code === 'INVALID_PASSWORD' ? 'The current password is wrong.' : authFailureMessage(res.error),
      );
    form.reset();
    setDone(revokeOthers ? 'Password changed; your other sessions were signed out.' : 'Password changed.');
  }

  return (
    <Section id="password-title" title="Password">
      <Outcome error={error} done={done} />
      <Form className="form" onSubmit={(event) => void submit(event)} aria-label="Change password">
        <TextField
          name="currentPassword"
          label="Current password"
          type="password"
          isRequired
          maxLength={128}
          autoComplete="current-password"
        />
        <TextField
          name="newPassword"
          label="New password"
          type="password"
          isRequired
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={128}
          autoComplete="new-password"
          description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <Checkbox className="checkbox" isSelected={revokeOthers} onChange={setRevokeOthers}>
          <span className="checkbox-box" aria-hidden="true" />
          Sign out my other sessions
        </Checkbox>
        <div className="form-actions">
          <Button type="submit" variant="primary" isPending={pending}>
            Change password
          </Button>
        </div>
      </Form>
    </Section>
  );
}

export function DeleteSection() {
  const sessionChanged = useSessionChange();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setPending(true);
    setError(null);
    const res = await callAuth(() => authClient.deleteUser({ password }));
    setPending(false);
    if (res.error) {
      setError(res.error.code === 'INVALID_PASSWORD' ? 'The password is wrong.' : authFailureMessage(res.error));
      return;
    }
    setOpen(false);
    await sessionChanged('/');
  }

  return (
    <Section id="delete-title" title="Delete account">
      <p>
        Deleting your account signs you out everywhere and removes you from every organization. Organizations where you
        are the only member are deleted with their projects. While you are the only owner of an organization that has
        other members, make one of them an owner first.
      </p>
      {error && !open && (
        <div className="callout callout-error" role="alert">
          {error}
        </div>
      )}
      <div className="form-actions">
        <Button variant="danger" onPress={() => setOpen(true)}>
          Delete account…
        </Button>
      </div>
      <ConfirmDialog
        isOpen={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setPassword('');
        }}
        title="Delete your account?"
        confirmLabel="Delete account"
        isPending={pending}
        onConfirm={() => void confirm()}
      >
        <p>This cannot be undone. Enter your password to confirm.</p>
        <TextField
          label="Password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          maxLength={128}
          errorMessage={error}
        />
      </ConfirmDialog>
    </Section>
  );
}
