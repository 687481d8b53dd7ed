import { useEffect, useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, Loading } from '../../components/status';
import { authClient } from '../../lib/auth-client';
import { currentSession } from '../../lib/session';
import { authFailureMessage, callAuth, type AuthCallFailure } from '../../lib/auth-call';
import { useSessionChange } from '../../lib/session-change';
import { InvitationFailure, InvitationOffer, ROLE_NAME, type InvitationView } from './invitation-parts';

const route = getRouteApi('/app/invitations/$invitationId');

/**
 * The invitation's secret: the link's fragment (never sent to a server), kept for this tab while the visitor signs
 * in or switches accounts (a full load that loses the fragment).
 */
function linkSecret(invitationId: string): string {
  const key = `invitation-secret:${invitationId}`;
  const fromLink = window.location.hash.slice(1);
  if (fromLink) sessionStorage.setItem(key, fromLink);
  return fromLink || sessionStorage.getItem(key) || '';
}

/** An invitation link, opened signed in (the app's guard brought the visitor through sign-in or sign-up). */
export function InvitationPage() {
  useDocumentTitle('Invitation');
  const { invitationId } = route.useParams();
  const sessionChanged = useSessionChange();
  const [secret, setSecret] = useState('');
  const [invitation, setInvitation] = useState<InvitationView | null>(null);
  const [failure, setFailure] = useState<AuthCallFailure | null>(null);
  const [signedInAs, setSignedInAs] = useState<string | null>(null);
  const [pending, setPending] = useState<'accept' | 'decline' | 'switch' | null>(null);
  const [declined, setDeclined] = useState(false);
  const [joined, setJoined] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [resent, setResent] = useState(false);

  useEffect(() => {
    let live = true;
    const linkKey = linkSecret(invitationId);
    setSecret(linkKey);
    void currentSession().then((s) => live && setSignedInAs(s?.user.email ?? null));
    // The secret rides along (better-auth's client sends the query as given); the server requires it without SMTP.
    const query = { id: invitationId, ...(linkKey && { secret: linkKey }) };
    void callAuth(() => authClient.organization.getInvitation({ query })).then((res) => {
      if (!live) return;
      if (res.data)
        setInvitation({
          organizationId: res.data.organizationId,
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

  const withSecret = { invitationId, ...(secret && { secret }) };

  function forget() {
    sessionStorage.removeItem(`invitation-secret:${invitationId}`);
  }

  async function accept() {
    setPending('accept');
    setActionError(null);
    const res = await callAuth(() => authClient.organization.acceptInvitation(withSecret));
    setPending(null);
    if (res.error) {
      setActionError(authFailureMessage(res.error));
      return;
    }
    forget();
    // The session stays in the organization it was in: switching is the visitor's choice, offered next.
    setJoined(true);
  }

  async function switchToOrganization() {
    if (!invitation) return;
    setPending('switch');
    setActionError(null);
    const res = await callAuth(() => authClient.organization.setActive({ organizationId: invitation.organizationId }));
    setPending(null);
    if (res.error) setActionError(authFailureMessage(res.error));
    else await sessionChanged('/projects');
  }

  async function resendConfirmation() {
    if (!signedInAs) return;
    const res = await callAuth(() =>
      authClient.sendVerificationEmail({ email: signedInAs, callbackURL: `/invitations/${invitationId}` }),
    );
    if (res.error) setActionError(authFailureMessage(res.error));
    else setResent(true);
  }

  async function decline() {
    setPending('decline');
    setActionError(null);
    const res = await callAuth(() => authClient.organization.rejectInvitation(withSecret));
    setPending(null);
    if (res.error) setActionError(authFailureMessage(res.error));
    else {
      forget();
      setDeclined(true);
    }
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
      {failure && (
        <InvitationFailure
          failure={failure}
          signedInAs={signedInAs}
          resent={resent}
          actionError={actionError}
          onResend={() => void resendConfirmation()}
          onSwitchAccount={() => void switchAccount()}
        />
      )}
      {invitation && joined && (
        <div role="status">
          <Callout tone="success" title={`You joined ${invitation.organizationName}`}>
            <p>
              You are {ROLE_NAME[invitation.role] ?? invitation.role} of {invitation.organizationName} now. Switch to it
              to see its projects (the header switches between your organizations at any time).
            </p>
          </Callout>
          {actionError && (
            <div className="callout callout-error" role="alert">
              {actionError}
            </div>
          )}
          <div className="form-actions">
            <Button variant="primary" onPress={() => void switchToOrganization()} isPending={pending === 'switch'}>
              Switch to {invitation.organizationName}
            </Button>
            <Link to="/projects">Stay where I was</Link>
          </div>
        </div>
      )}
      {invitation && !declined && !joined && (
        <InvitationOffer
          invitation={invitation}
          actionError={actionError}
          pending={pending}
          onAccept={() => void accept()}
          onDecline={() => void decline()}
        />
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
