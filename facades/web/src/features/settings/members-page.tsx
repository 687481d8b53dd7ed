import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog, FormDialog } from '../../components/confirm-dialog';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, EmptyState, ErrorMessage, Loading } from '../../components/status';
import { TextField } from '../../components/text-field';
import { MailEnabledDocument, MembersDocument, TeamViewerDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import { formatDateTime } from '../../lib/format';
import { useSessionChange } from '../../lib/session-change';
import { CopyButton } from '../../components/copy-button';

const ROLE_LABEL: Record<string, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
const ROLES = ['member', 'admin', 'owner'] as const;
type Role = (typeof ROLES)[number];

interface Invitation {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
}

interface MemberRow {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: string;
}

const iso = (value: unknown): string => new Date(value as string).toISOString();
/** The invite endpoint's answer carries the link (with its secret) for the inviter, once: only its hash is kept. */
const linkOf = (data: unknown): string | null => {
  const link = (data as { link?: unknown } | null)?.link;
  return typeof link === 'string' ? link : null;
};

/** An invitation's link, as its inviter gets it when the invitation is made or renewed. */
function InvitationLinkView({
  email,
  link,
  mailEnabled,
}: {
  email: string;
  link: string | null;
  mailEnabled: boolean;
}) {
  return (
    <>
      {mailEnabled ? (
        <Callout tone="success" title="Invitation sent">
          <p>
            {email} has an e-mail with a link to join: they accept once they have confirmed their address. The link
            works for 7 days; you can copy it below too.
          </p>
        </Callout>
      ) : (
        <Callout tone="warning" title="Send this link yourself">
          <p>
            This server sends no e-mail (SMTP_URL is not set). Copy the link and send it to {email}: they sign in or
            sign up with that address, then accept. It works for 7 days.
          </p>
        </Callout>
      )}
      {link && (
        <>
          <TextField label={`Invitation link for ${email}`} value={link} isReadOnly />
          <CopyButton text={link} label="Copy link" what="link" />
          <p className="muted small">
            The link is shown only now. To give it again, renew the invitation: the new link replaces this one.
          </p>
        </>
      )}
    </>
  );
}

/** The roles a member may hand out: only an owner makes owners. */
const assignable = (myRole: string | undefined): Role[] =>
  myRole === 'owner' ? [...ROLES] : myRole === 'admin' ? ['member', 'admin'] : [];

function RoleSelect({
  id,
  label,
  value,
  roles,
  isDisabled,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  roles: Role[];
  isDisabled?: boolean;
  onChange(role: Role): void;
}) {
  const options = roles.includes(value as Role) ? roles : [value as Role, ...roles];
  return (
    <select
      id={id}
      className="input role-select"
      aria-label={label}
      value={value}
      disabled={isDisabled}
      onChange={(e) => onChange(e.currentTarget.value as Role)}
    >
      {options.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABEL[r] ?? r}
        </option>
      ))}
    </select>
  );
}

function InviteDialog({
  isOpen,
  onOpenChange,
  organizationId,
  myRole,
  mailEnabled,
  onInvited,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  organizationId: string;
  myRole: string | undefined;
  mailEnabled: boolean;
  onInvited(): void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [role, setRole] = useState<Role>('member');
  const [sent, setSent] = useState<{ email: string; link: string | null } | null>(null);
  const close = () => {
    setSent(null);
    setError(null);
    setRole('member');
    onOpenChange(false);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setPending(true);
    setError(null);
    const res = await callAuth(() =>
      authClient.organization.inviteMember({ email, role, organizationId, resend: true }),
    );
    setPending(false);
    if (res.error || !res.data) {
      setError(authFailureMessage(res.error) ?? 'The invitation could not be made.');
      return;
    }
    setSent({ email, link: linkOf(res.data) });
    onInvited();
  }

  return (
    <FormDialog
      isOpen={isOpen}
      onOpenChange={(open) => (open ? onOpenChange(true) : close())}
      title={sent ? 'Invitation ready' : 'Invite a member'}
    >
      {sent ? (
        <div className="form">
          <InvitationLinkView email={sent.email} link={sent.link} mailEnabled={mailEnabled} />
          <div className="dialog-actions">
            <Button variant="primary" onPress={close}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <Form className="form" onSubmit={(event) => void submit(event)}>
          {error && (
            <div className="callout callout-error" role="alert">
              {error}
            </div>
          )}
          <TextField name="email" label="E-mail" type="email" isRequired autoFocus maxLength={254} />
          <div className="field">
            <label className="field-label" htmlFor="invite-role">
              Role
            </label>
            <RoleSelect id="invite-role" label="Role" value={role} roles={assignable(myRole)} onChange={setRole} />
            <p className="field-description">
              Members use the projects; admins also manage members and API keys; owners also manage the organization.
            </p>
          </div>
          <div className="dialog-actions">
            <Button onPress={close}>Cancel</Button>
            <Button type="submit" variant="primary" isPending={pending}>
              {mailEnabled ? 'Send invitation' : 'Create invitation link'}
            </Button>
          </div>
        </Form>
      )}
    </FormDialog>
  );
}

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
  const mailEnabled = mail.data?.mailEnabled ?? false;
  const [invitations, setInvitations] = useState<Invitation[] | null>(null);
  const [invitationsError, setInvitationsError] = useState<string | null>(null);
  const [inviting, setInviting] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<MemberRow | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [renewed, setRenewed] = useState<{ email: string; link: string | null } | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [pending, setPending] = useState(false);

  const loadInvitations = useCallback(async () => {
    if (!organizationId || !manages) return;
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
  }, [organizationId, manages]);

  useEffect(() => {
    void loadInvitations();
  }, [loadInvitations]);

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

  /** A new link (and, with mail, a new e-mail); an expired invitation is replaced by a new one. */
  async function renew(invitation: Invitation) {
    if (!organizationId) return;
    setActionError(null);
    const res = await callAuth(() =>
      authClient.organization.inviteMember({
        email: invitation.email,
        role: invitation.role as Role,
        organizationId,
        resend: true,
      }),
    );
    if (res.error || !res.data) {
      setActionError(authFailureMessage(res.error) ?? 'The invitation could not be renewed.');
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
    if (res.error) setActionError(authFailureMessage(res.error));
    else setStatus(`The invitation to ${revoking.email} was revoked.`);
    setRevoking(null);
    void loadInvitations();
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
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Member since</th>
                {manages && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.members.map((m) => (
                <tr key={m.id}>
                  <th scope="row">
                    {m.name}
                    {m.userId === me?.userId && <span className="muted small"> (you)</span>}
                  </th>
                  <td>{m.email}</td>
                  <td>
                    {canEdit(m) ? (
                      <RoleSelect
                        id={`role-${m.id}`}
                        label={`Role of ${m.name || m.email}`}
                        value={m.role}
                        roles={assignable(myRole)}
                        onChange={(role) => void changeRole(m, role)}
                      />
                    ) : (
                      (ROLE_LABEL[m.role] ?? m.role)
                    )}
                  </td>
                  <td>
                    <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                  </td>
                  {manages && (
                    <td className="cell-actions">
                      {canEdit(m) && (
                        <Button
                          variant="danger"
                          onPress={() => setRemoving(m)}
                          aria-label={`Remove ${m.name || m.email}`}
                        >
                          Remove
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {manages && (
        <section aria-labelledby="invitations-title" className="settings-subsection">
          <h3 id="invitations-title">Pending invitations</h3>
          {invitationsError && (
            <div className="callout callout-error" role="alert">
              {invitationsError}
            </div>
          )}
          {mail.data && !mail.data.mailEnabled && (
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
              <div className="table-wrap">
                <table className="table">
                  <caption className="visually-hidden">Pending invitations</caption>
                  <thead>
                    <tr>
                      <th scope="col">E-mail</th>
                      <th scope="col">Role</th>
                      <th scope="col">Expires</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {invitations.map((i) => {
                      const expired = i.status === 'expired';
                      return (
                        <tr key={i.id} className={expired ? 'row-muted' : undefined}>
                          <th scope="row">{i.email}</th>
                          <td>{ROLE_LABEL[i.role] ?? i.role}</td>
                          <td>
                            {expired ? 'Expired ' : ''}
                            <time dateTime={i.expiresAt}>{formatDateTime(i.expiresAt)}</time>
                          </td>
                          <td className="cell-actions">
                            {assignable(myRole).includes(i.role as Role) && (
                              <Button onPress={() => void renew(i)} aria-label={`Renew invitation for ${i.email}`}>
                                {mailEnabled ? 'Resend' : 'New link'}
                              </Button>
                            )}
                            <Button
                              variant="danger"
                              onPress={() => setRevoking(i)}
                              aria-label={`Revoke invitation for ${i.email}`}
                            >
                              Revoke
                            </Button>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )
          )}
        </section>
      )}

      {organizationId && (
        <InviteDialog
          isOpen={inviting}
          onOpenChange={setInviting}
          organizationId={organizationId}
          myRole={myRole}
          mailEnabled={mail.data?.mailEnabled ?? false}
          onInvited={() => void loadInvitations()}
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
