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
  organizationId: string;
  organizationName: string;
  inviterEmail: string;
  role: string;
  email: string;
  expiresAt: string;
}

/** The refusals that mean "confirm your e-mail address first" (with SMTP configured). */
const UNCONFIRMED = new Set([
  'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION',
  'EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION',
]);
/** The refusals of a link without its secret, or with an old one (without SMTP). */
const BAD_LINK = new Set(['INVITATION_SECRET_REQUIRED', 'INVALID_INVITATION_SECRET']);

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
      {failure &&
        (failure.code && UNCONFIRMED.has(failure.code) ? (
          <div className="callout callout-info" role="alert">
            <strong>Confirm your e-mail address first</strong>
            <p>
              An invitation is accepted with a confirmed address. We sent a link to {signedInAs ?? 'your address'} when
              you signed up: open it, and it brings you back here.
            </p>
            {resent ? (
              <p role="status">A new link is on its way to {signedInAs}.</p>
            ) : (
              <Button onPress={() => void resendConfirmation()}>Send the link again</Button>
            )}
            {actionError && <p>{actionError}</p>}
          </div>
        ) : failure.code && BAD_LINK.has(failure.code) ? (
          <div className="callout callout-error" role="alert">
            <strong>This invitation link is incomplete or was replaced</strong>
            <p>
              {authFailureMessage(failure)} Open the link exactly as you received it, or ask whoever invited you for a
              new one.
            </p>
          </div>
        ) : failure.status === 403 ? (
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
        <div className="card form">
          <p>
            <strong>{invitation.inviterEmail}</strong> invited you ({invitation.email}) to join{' '}
            <strong>{invitation.organizationName}</strong> as {ROLE_NAME[invitation.role] ?? invitation.role}.
          </p>
          <p className="muted small">
            The invitation expires on{' '}
            <time dateTime={invitation.expiresAt}>{formatDateTime(invitation.expiresAt)}</time>. Once you accept, you
            can switch to it and see its projects; your own organization stays yours (switch between them in the
            header).
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
