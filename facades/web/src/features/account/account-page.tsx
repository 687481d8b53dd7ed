import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { Checkbox, Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, Loading } from '../../components/status';
import { TextField } from '../../components/text-field';
import { MailEnabledDocument } from '../../gql/graphql';
import { authClient, currentSession, type Session } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import { formatDateTime } from '../../lib/format';
import { useSessionChange } from '../../lib/session-change';

const MIN_PASSWORD_LENGTH = 8;

interface SessionRow {
  id: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  userAgent: string | null;
  ipAddress: string | null;
}

/** One form section of the page, with its outcome announced. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card account-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function Outcome({ error, done }: { error: string | null; done: string | null }) {
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

/** A short description of a browser from its User-Agent header. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Firefox\//.test(userAgent)
    ? 'Firefox'
    : /Edg\//.test(userAgent)
      ? 'Edge'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.split(/[ /]/)[0];
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

function ProfileSection({ session, mailEnabled }: { session: Session; mailEnabled: boolean }) {
  const sessionChanged = useSessionChange();
  const [pending, setPending] = useState<'name' | 'email' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function saveName(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    setPending('name');
    setError(null);
    setDone(null);
    const res = await callAuth(() => authClient.updateUser({ name }));
    setPending(null);
    if (res.error) return setError(authFailureMessage(res.error));
    setDone('Your name was saved.');
    await sessionChanged('/account');
  }

  async function changeEmail(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const newEmail = String(new FormData(event.currentTarget).get('newEmail') ?? '').trim();
    setPending('email');
    setError(null);
    setDone(null);
    const res = await callAuth(() => authClient.changeEmail({ newEmail, callbackURL: '/account' }));
    setPending(null);
    if (res.error) return setError(authFailureMessage(res.error));
    setDone(`A confirmation link was sent to ${newEmail}: your address changes when you open it.`);
  }

  return (
    <Section id="profile-title" title="Profile">
      <Outcome error={error} done={done} />
      <Form className="form" onSubmit={(event) => void saveName(event)} aria-label="Name">
        <TextField
          name="name"
          label="Name"
          isRequired
          maxLength={100}
          defaultValue={session.user.name}
          autoComplete="name"
        />
        <div className="form-actions">
          <Button type="submit" isPending={pending === 'name'}>
            Save name
          </Button>
        </div>
      </Form>
      <p>
        E-mail: <strong>{session.user.email}</strong>
      </p>
      {mailEnabled ? (
        <Form className="form" onSubmit={(event) => void changeEmail(event)} aria-label="Change e-mail">
          <TextField
            name="newEmail"
            label="New e-mail address"
            type="email"
            isRequired
            maxLength={254}
            autoComplete="email"
            description="We send a link to the new address; it replaces the current one once you open it."
          />
          <div className="form-actions">
            <Button type="submit" isPending={pending === 'email'}>
              Change e-mail
            </Button>
          </div>
        </Form>
      ) : (
        <p className="muted small">
          Changing the e-mail address needs a confirmation by e-mail, and this server sends none (SMTP_URL is not set).
        </p>
      )}
    </Section>
  );
}

function PasswordSection() {
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

function SessionsSection({ currentToken }: { currentToken: string }) {
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const load = useCallback(async () => {
    const res = await callAuth(() => authClient.listSessions());
    if (res.error || !res.data) return setError(authFailureMessage(res.error));
    setSessions(
      res.data
        .map((s) => ({
          id: s.id,
          token: s.token,
          createdAt: new Date(s.createdAt).toISOString(),
          updatedAt: new Date(s.updatedAt).toISOString(),
          userAgent: s.userAgent ?? null,
          ipAddress: s.ipAddress ?? null,
        }))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)),
    );
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function revoke(row: SessionRow) {
    setError(null);
    const res = await callAuth(() => authClient.revokeSession({ token: row.token }));
    if (res.error) setError(authFailureMessage(res.error));
    else setDone(`Signed out ${deviceOf(row.userAgent)}.`);
    await load();
  }

  async function revokeOthers() {
    setPending(true);
    setError(null);
    const res = await callAuth(() => authClient.revokeOtherSessions());
    setPending(false);
    if (res.error) setError(authFailureMessage(res.error));
    else setDone('Every other session was signed out.');
    await load();
  }

  const others = sessions?.filter((s) => s.token !== currentToken).length ?? 0;
  return (
    <Section id="sessions-title" title="Active sessions">
      <Outcome error={error} done={done} />
      {!sessions ? (
        !error && <Loading label="Loading sessions…" />
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Active sessions</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">IP address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id}>
                  <th scope="row">
                    {deviceOf(s.userAgent)}
                    {s.token === currentToken && <span className="badge"> This browser</span>}
                  </th>
                  <td>{s.ipAddress ?? '—'}</td>
                  <td>
                    <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time>
                  </td>
                  <td>
                    <time dateTime={s.updatedAt}>{formatDateTime(s.updatedAt)}</time>
                  </td>
                  <td className="cell-actions">
                    {s.token !== currentToken && (
                      <Button
                        onPress={() => void revoke(s)}
                        aria-label={`Sign out ${deviceOf(s.userAgent)}, signed in ${formatDateTime(s.createdAt)}`}
                      >
                        Sign out
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="form-actions">
        <Button onPress={() => void revokeOthers()} isPending={pending} isDisabled={others === 0}>
          Sign out everywhere else
        </Button>
      </div>
    </Section>
  );
}

function DeleteSection() {
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

/** The signed-in person's own account: profile, password, sessions, deletion. */
export function AccountPage() {
  useDocumentTitle('Account');
  const [mail] = useQuery({ query: MailEnabledDocument });
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    void currentSession().then(setSession);
  }, []);

  return (
    <section className="page narrow account-page" aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      {!session ? (
        <Loading label="Loading your account…" />
      ) : (
        <>
          <ProfileSection session={session} mailEnabled={mail.data?.mailEnabled ?? false} />
          <PasswordSection />
          <SessionsSection currentToken={session.session.token} />
          <DeleteSection />
          {mail.data && !mail.data.mailEnabled && (
            <Callout title="Forgot your password later?">
              <p>
                This server sends no e-mail: an administrator resets passwords with <code>seo user set-password</code>.
              </p>
            </Callout>
          )}
        </>
      )}
    </section>
  );
}
