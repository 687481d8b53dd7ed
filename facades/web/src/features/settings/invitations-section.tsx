import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog, FormDialog } from '../../components/confirm-dialog';
import { Callout, EmptyState, Loading } from '../../components/status';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import type { Invitation, Role } from './members-parts';
import { InvitationLinkView, iso, linkOf } from './members-parts';
import { InviteDialog } from './invite-dialog';
import { InvitationsTable } from './members-tables';

/** The pending invitations (for owners and admins): the list, its renew and revoke, and the invite dialog. */
export function InvitationsSection({
  organizationId,
  myRole,
  mailEnabled,
  mailUnconfigured,
  inviting,
  onInvitingChange,
  onActionError,
  onStatus,
}: {
  organizationId: string | undefined;
  myRole: string | undefined;
  mailEnabled: boolean;
  mailUnconfigured: boolean;
  inviting: boolean;
  onInvitingChange(open: boolean): void;
  onActionError(message: string | null): void;
  onStatus(message: string): void;
}) {
  const [invitations, setInvitations] = useState<Invitation[] | null>(null);
  const [invitationsError, setInvitationsError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [renewed, setRenewed] = useState<{ email: string; link: string | null } | null>(null);
  const [pending, setPending] = useState(false);

  const loadInvitations = useCallback(async () => {
    if (!organizationId) return;
    const res = await callAuth(() => authClient.organization.listInvitations({ query: { organizationId } }));
    if (res.error || !res.data) {
      setInvitationsError(authFailureMessage(res.error));
      return;
    }
    setInvitationsError(null);
    // Pending and expired ones (the server says which): accepted, declined and revoked ones are history.
    setInvitations(
      res.data
        .filter((i) => i.status === 'pending' || (i.status as string) === 'expired')
        .map((i) => ({ id: i.id, email: i.email, role: i.role, status: i.status, expiresAt: iso(i.expiresAt) })),
    );
  }, [organizationId]);

  useEffect(() => {
    void loadInvitations();
  }, [loadInvitations]);

  /** A new link (and, with mail, a new e-mail); an expired invitation is replaced by a new one. */
  async function renew(invitation: Invitation) {
    if (!organizationId) return;
    onActionError(null);
    const res = await callAuth(() =>
      authClient.organization.inviteMember({
        email: invitation.email,
        role: invitation.role as Role,
        organizationId,
        resend: true,
      }),
    );
    if (res.error || !res.data) {
      onActionError(authFailureMessage(res.error) ?? 'The invitation could not be renewed.');
      return;
    }
    if (invitation.status === 'expired' && res.data.id !== invitation.id)
      await callAuth(() => authClient.organization.cancelInvitation({ invitationId: invitation.id }));
    setRenewed({ email: invitation.email, link: linkOf(res.data) });
    void loadInvitations();
  }

  async function confirmRevoke() {
    if (!revoking) return;
    setPending(true);
    const res = await callAuth(() => authClient.organization.cancelInvitation({ invitationId: revoking.id }));
    setPending(false);
    if (res.error) onActionError(authFailureMessage(res.error));
    else onStatus(`The invitation to ${revoking.email} was revoked.`);
    setRevoking(null);
    void loadInvitations();
  }

  return (
    <>
      <section aria-labelledby="invitations-title" className="settings-subsection">
        <h3 id="invitations-title">Pending invitations</h3>
        {invitationsError && (
          <div className="callout callout-error" role="alert">
            {invitationsError}
          </div>
        )}
        {mailUnconfigured && (
          <Callout tone="info" title="E-mail is not configured">
            <p>
              This server sends no e-mail (SMTP_URL is not set): copy an invitation’s link and send it to the person
              yourself.
            </p>
          </Callout>
        )}
        {invitations === null && !invitationsError ? (
          <Loading label="Loading invitations…" />
        ) : invitations?.length === 0 ? (
          <EmptyState title="No pending invitations">
            <p>Invite people by e-mail; they join once they accept.</p>
          </EmptyState>
        ) : (
          invitations && (
            <InvitationsTable
              invitations={invitations}
              myRole={myRole}
              mailEnabled={mailEnabled}
              onRenew={(i) => void renew(i)}
              onRevoke={setRevoking}
            />
          )
        )}
      </section>
      {organizationId && (
        <InviteDialog
          isOpen={inviting}
          onOpenChange={onInvitingChange}
          organizationId={organizationId}
          myRole={myRole}
          mailEnabled={mailEnabled}
          onInvited={() => void loadInvitations()}
        />
      )}
      <FormDialog
        isOpen={renewed !== null}
        onOpenChange={(open) => !open && setRenewed(null)}
        title="Invitation renewed"
      >
        {renewed && (
          <div className="form">
            <InvitationLinkView email={renewed.email} link={renewed.link} mailEnabled={mailEnabled} />
            <div className="dialog-actions">
              <Button variant="primary" onPress={() => setRenewed(null)}>
                Done
              </Button>
            </div>
          </div>
        )}
      </FormDialog>
      <ConfirmDialog
        isOpen={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={revoking ? `Revoke the invitation to ${revoking.email}?` : 'Revoke invitation'}
        confirmLabel="Revoke invitation"
        isPending={pending}
        onConfirm={() => void confirmRevoke()}
      >
        <p>Its link stops working.</p>
      </ConfirmDialog>
    </>
  );
}
