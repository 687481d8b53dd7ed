import { Link } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { authFailureMessage, type AuthCallFailure } from '../../lib/auth-call';
import { formatDateTime } from '../../lib/format';

export const ROLE_NAME: Record<string, string> = { owner: 'an owner', admin: 'an admin', member: 'a member' };

export interface InvitationView {
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

/** Why the invitation cannot be shown: an unconfirmed address, a bad link, another account, or no longer valid. */
export function InvitationFailure({
  failure,
  signedInAs,
  resent,
  actionError,
  onResend,
  onSwitchAccount,
}: {
  failure: AuthCallFailure;
  signedInAs: string | null;
  resent: boolean;
  actionError: string | null;
  onResend(): void;
  onSwitchAccount(): void;
}) {
  return failure.code && UNCONFIRMED.has(failure.code) ? (
    <div className="callout callout-info" role="alert">
      <strong>Confirm your e-mail address first</strong>
      <p>
        An invitation is accepted with a confirmed address. We sent a link to {signedInAs ?? 'your address'} when you
        signed up: open it, and it brings you back here.
      </p>
      {resent ? (
        <p role="status">A new link is on its way to {signedInAs}.</p>
      ) : (
        <Button onPress={onResend}>Send the link again</Button>
      )}
      {actionError && <p>{actionError}</p>}
    </div>
  ) : failure.code && BAD_LINK.has(failure.code) ? (
    <div className="callout callout-error" role="alert">
      <strong>This invitation link is incomplete or was replaced</strong>
      <p>
        {authFailureMessage(failure)} Open the link exactly as you received it, or ask whoever invited you for a new
        one.
      </p>
    </div>
  ) : failure.status === 403 ? (
    <div className="callout callout-error" role="alert">
      <strong>This invitation is for another e-mail address</strong>
      <p>
        You are signed in as {signedInAs ?? 'another user'}. Sign in (or sign up) with the address the invitation was
        sent to, then open the link again.
      </p>
      <Button onPress={onSwitchAccount}>Sign in with another account</Button>
    </div>
  ) : (
    <div className="callout callout-error" role="alert">
      <strong>This invitation is no longer valid</strong>
      <p>
        It may have expired, been revoked, or been used already ({authFailureMessage(failure)}). Ask whoever invited you
        for a new one.
      </p>
      <p>
        <Link to="/projects">Go to your projects</Link>
      </p>
    </div>
  );
}

/** Who invited whom to which organization as what, until when; accept or decline. */
export function InvitationOffer({
  invitation,
  actionError,
  pending,
  onAccept,
  onDecline,
}: {
  invitation: InvitationView;
  actionError: string | null;
  pending: string | null;
  onAccept(): void;
  onDecline(): void;
}) {
  return (
    <div className="card form">
      <p>
        <strong>{invitation.inviterEmail}</strong> invited you ({invitation.email}) to join{' '}
        <strong>{invitation.organizationName}</strong> as {ROLE_NAME[invitation.role] ?? invitation.role}.
      </p>
      <p className="muted small">
        The invitation expires on <time dateTime={invitation.expiresAt}>{formatDateTime(invitation.expiresAt)}</time>.
        Once you accept, you can switch to it and see its projects; your own organization stays yours (switch between
        them in the header).
      </p>
      {actionError && (
        <div className="callout callout-error" role="alert">
          {actionError}
        </div>
      )}
      <div className="form-actions">
        <Button variant="primary" onPress={onAccept} isPending={pending === 'accept'}>
          Accept invitation
        </Button>
        <Button onPress={onDecline} isPending={pending === 'decline'}>
          Decline
        </Button>
      </div>
    </div>
  );
}
