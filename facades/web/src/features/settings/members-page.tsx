import { useState } from 'react';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDocumentTitle } from '../../components/document-title';
import { ErrorMessage, Loading } from '../../components/status';
import { MailEnabledDocument, MembersDocument, TeamViewerDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import { useSessionChange } from '../../lib/session-change';
import type { MemberRow, Role } from './members-parts';
import { ROLE_LABEL } from './members-parts';
import { MembersTable } from './members-tables';
import { InvitationsSection } from './invitations-section';

export function MembersPage() {
  useDocumentTitle('Members');
  const [viewer] = useQuery({ query: TeamViewerDocument });
  const [mail] = useQuery({ query: MailEnabledDocument });
  const [{ data, fetching, error }, refetchMembers] = useQuery({ query: MembersDocument });
  const sessionChanged = useSessionChange();
  const me = viewer.data?.viewer;
  const organizationId = me?.organization.id;
  const myRole = me?.role;
  const manages = myRole === 'owner' || myRole === 'admin';
  const [inviting, setInviting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const mailEnabled = mail.data?.mailEnabled ?? false;
  const [removing, setRemoving] = useState<MemberRow | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [pending, setPending] = useState(false);

  const refreshMembers = () => refetchMembers({ requestPolicy: 'network-only' });

  async function changeRole(member: MemberRow, role: Role) {
    setActionError(null);
    const res = await callAuth(() =>
      authClient.organization.updateMemberRole({ memberId: member.id, role, organizationId }),
    );
    if (res.error) setActionError(authFailureMessage(res.error));
    else setStatus(`${member.name || member.email} is now ${ROLE_LABEL[role].toLowerCase()}.`);
    refreshMembers();
  }

  async function confirmRemove() {
    if (!removing) return;
    setPending(true);
    const res = await callAuth(() =>
      authClient.organization.removeMember({ memberIdOrEmail: removing.id, organizationId }),
    );
    setPending(false);
    if (res.error) setActionError(authFailureMessage(res.error));
    else setStatus(`${removing.name || removing.email} was removed.`);
    setRemoving(null);
    refreshMembers();
  }

  async function confirmLeave() {
    if (!organizationId) return;
    setPending(true);
    const res = await callAuth(() => authClient.organization.leave({ organizationId }));
    setPending(false);
    if (res.error) {
      setLeaving(false);
      setActionError(authFailureMessage(res.error));
      return;
    }
    await sessionChanged('/projects');
  }

  const canEdit = (m: MemberRow) => manages && m.userId !== me?.userId && (m.role !== 'owner' || myRole === 'owner');

  return (
    <div className="settings-section">
      <div className="section-header">
        <div>
          <h2>Members</h2>
          <p className="muted">
            People in {me?.organization.name ?? 'this organization'}. Owners manage the organization; owners and admins
            manage members and API keys; members use the projects.
          </p>
        </div>
        <div className="page-actions">
          {manages && organizationId && (
            <Button variant="primary" onPress={() => setInviting(true)}>
              Invite member
            </Button>
          )}
          {me && (
            <Button variant="danger" onPress={() => setLeaving(true)}>
              Leave organization
            </Button>
          )}
        </div>
      </div>
      <p role="status" className="visually-hidden">
        {status}
      </p>
      {actionError && (
        <div className="callout callout-error" role="alert">
          {actionError}
        </div>
      )}
      {fetching && !data && <Loading label="Loading members…" />}
      <ErrorMessage problem={problemOf(error)} title="The members could not be loaded" />
      {data && (
        <MembersTable
          members={data.members}
          myUserId={me?.userId}
          myRole={myRole}
          manages={manages}
          canEdit={canEdit}
          onChangeRole={(m, role) => void changeRole(m, role)}
          onRemove={setRemoving}
        />
      )}

      {manages && (
        <InvitationsSection
          organizationId={organizationId}
          myRole={myRole}
          mailEnabled={mailEnabled}
          mailUnconfigured={mail.data ? !mail.data.mailEnabled : false}
          inviting={inviting}
          onInvitingChange={setInviting}
          onActionError={setActionError}
          onStatus={setStatus}
        />
      )}
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={removing ? `Remove ${removing.name || removing.email}?` : 'Remove member'}
        confirmLabel="Remove member"
        isPending={pending}
        onConfirm={() => void confirmRemove()}
      >
        <p>They lose access to the organization’s projects at once. You can invite them again later.</p>
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={leaving}
        onOpenChange={setLeaving}
        title={`Leave ${me?.organization.name ?? 'the organization'}?`}
        confirmLabel="Leave organization"
        isPending={pending}
        onConfirm={() => void confirmLeave()}
      >
        <p>You lose access to its projects. An organization keeps at least one owner: the last owner cannot leave.</p>
      </ConfirmDialog>
    </div>
  );
}
