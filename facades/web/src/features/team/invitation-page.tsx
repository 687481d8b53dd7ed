import { useEffect, useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, Loading } from '../../components/status';
import { authClient, currentSession } from '../../lib/auth-client';
import { authFailureMessage, callAuth, type AuthCallFailure } from '../../lib/auth-call';
import { formatDateTime } from '../../lib/format';
import { useSessionChange } from '../../lib/session-change';

const route = getRouteApi('/app/invitations/$invitationId');
const ROLE_NAME: Record<string, string> = { owner: 'an owner', admin: 'an admin', member: 'a member' };

interface InvitationView {
  organizationName: string;
  inviterEmail: string;
  role: string;
  email: string;
  expiresAt: string;
}

/** An invitation link, opened signed in (the app's guard brought the visitor through sign-in or sign-up). */
export function InvitationPage() {
  useDocumentTitle('Invitation');
  const { invitationId } = route.useParams();
  const sessionChanged = useSessionChange();
  const [invitation, setInvitation] = useState<InvitationView | null>(null);
  const [failure, setFailure] = useState<AuthCallFailure | null>(null);
  const [signedInAs, setSignedInAs] = useState<string | null>(null);
  const [pending, setPending] = useState<'accept' | 'decline' | null>(null);
  const [declined, setDeclined] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void currentSession().then((s) => live && setSignedInAs(s?.user.email ?? null));
    void callAuth(() => authClient.organization.getInvitation({ query: { id: invitationId } })).then((res) => {
      if (!live) return;
      if (res.data)
        setInvitation({
          organizationName: res.data.organizationName,
          inviterEmail: res.data.inviterEmail,
          role: res.data.role,
          email: res.data.email,
          expiresAt: new Date(res.data.expiresAt).toISOString(),
        });
      else setFailure(res.error ?? { status: 0 });
    });
    return () => {
      live = false;
    };
  }, [invitationId]);

  async function accept() {
    setPending('accept');
    setActionError(null);
    const res = await callAuth(() => authClient.organization.acceptInvitation({ invitationId }));
    setPending(null);
    if (res.error) {
      setActionError(authFailureMessage(res.error));
      return;
    }
    // better-auth made the organization the session's active one: its projects are what comes next.
    await sessionChanged('/projects');
  }

  async function decline() {
    setPending('decline');
    setActionError(null);
    const res = await callAuth(() => authClient.organization.rejectInvitation({ invitationId }));
    setPending(null);
    if (res.error) setActionError(authFailureMessage(res.error));
    else setDeclined(true);
  }

  async function switchAccount() {
    await authClient.signOut();
    // A full load: every cached answer belonged to the account that just signed out.
    window.location.assign(`/sign-in?redirect=${encodeURIComponent(`/invitations/${invitationId}`)}`);
  }

  return (
    <section className="page narrow" aria-labelledby="invitation-title">
      <h1 id="invitation-title">
        {invitation ? `Join ${invitation.organizationName}` : 'Invitation to an organization'}
      </h1>
      {!invitation && !failure && <Loading label="Loading the invitation…" />}
      {failure &&
        (failure.status === 403 ? (
          <div className="callout callout-error" role="alert">
            <strong>This invitation is for another e-mail address</strong>
            <p>
              You are signed in as {signedInAs ?? 'another user'}. Sign in (or sign up) with the address the invitation
              was sent to, then open the link again.
            </p>
            <Button onPress={() => void switchAccount()}>Sign in with another account</Button>
          </div>
        ) : (
          <div className="callout callout-error" role="alert">
            <strong>This invitation is no longer valid</strong>
            <p>
              It may have expired, been revoked, or been used already ({authFailureMessage(failure)}). Ask whoever
              invited you for a new one.
            </p>
            <p>
              <Link to="/projects">Go to your projects</Link>
            </p>
          </div>
        ))}
      {invitation && !declined && (
        <div className="card form">
          <p>
            <strong>{invitation.inviterEmail}</strong> invited you ({invitation.email}) to join{' '}
            <strong>{invitation.organizationName}</strong> as {ROLE_NAME[invitation.role] ?? invitation.role}.
          </p>
          <p className="muted small">
            The invitation expires on{' '}
            <time dateTime={invitation.expiresAt}>{formatDateTime(invitation.expiresAt)}</time>. Once you accept, you
            see its projects; your own organization stays yours (switch between them in the header).
          </p>
          {actionError && (
            <div className="callout callout-error" role="alert">
              {actionError}
            </div>
          )}
          <div className="form-actions">
            <Button variant="primary" onPress={() => void accept()} isPending={pending === 'accept'}>
              Accept invitation
            </Button>
            <Button onPress={() => void decline()} isPending={pending === 'decline'}>
              Decline
            </Button>
          </div>
        </div>
      )}
      {declined && (
        <div role="status">
          <Callout title="Invitation declined">
            <p>
              You did not join {invitation?.organizationName}. <Link to="/projects">Go to your projects</Link>
            </p>
          </Callout>
        </div>
      )}
    </section>
  );
}
