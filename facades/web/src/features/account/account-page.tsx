import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, Loading } from '../../components/status';
import { TextField } from '../../components/text-field';
import { MailEnabledDocument } from '../../gql/graphql';
import { authClient } from '../../lib/auth-client';
import { currentSession, type Session } from '../../lib/session';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import { useSessionChange } from '../../lib/session-change';
import { DeleteSection, Outcome, PasswordSection, Section } from './account-sections';
import { SessionsSection } from './sessions-section';

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
