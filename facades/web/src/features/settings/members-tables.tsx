import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { formatDateTime } from '../../lib/format';
import type { Invitation, MemberRow, Role } from './members-parts';
import { ROLE_LABEL, RoleSelect, assignable } from './members-parts';

/** The organization's members; with `manages`, a role select and "Remove" where the viewer may change them. */
export function MembersTable({
  members,
  myUserId,
  myRole,
  manages,
  canEdit,
  onChangeRole,
  onRemove,
}: {
  members: readonly (MemberRow & { createdAt: string })[];
  myUserId: string | null | undefined;
  myRole: string | undefined;
  manages: boolean;
  canEdit(m: MemberRow): boolean;
  onChangeRole(m: MemberRow, role: Role): void;
  onRemove(m: MemberRow): void;
}) {
  type Row = (typeof members)[number];
  const columns: Column<Row>[] = [
    {
      id: 'name',
      header: 'Name',
      rowHeader: true,
      cell: (m) => (
        <>
          {m.name}
          {m.userId === myUserId && <span className="muted small"> (you)</span>}
        </>
      ),
    },
    { id: 'email', header: 'E-mail', cell: (m) => m.email },
    {
      id: 'role',
      header: 'Role',
      cell: (m) =>
        canEdit(m) ? (
          <RoleSelect
            id={`role-${m.id}`}
            label={`Role of ${m.name || m.email}`}
            value={m.role}
            roles={assignable(myRole)}
            onChange={(role) => onChangeRole(m, role)}
          />
        ) : (
          (ROLE_LABEL[m.role] ?? m.role)
        ),
    },
    {
      id: 'since',
      header: 'Member since',
      cell: (m) => <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>,
    },
  ];
  if (manages)
    columns.push({
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      className: 'cell-actions',
      headerClassName: '',
      cell: (m) =>
        canEdit(m) && (
          <Button variant="danger" onPress={() => onRemove(m)} aria-label={`Remove ${m.name || m.email}`}>
            Remove
          </Button>
        ),
    });
  return <DataTable label="Members" caption="Members" columns={columns} rows={members} rowKey={(m) => m.id} />;
}

/** Pending and expired invitations, each with "Resend" (or "New link") and "Revoke". */
export function InvitationsTable({
  invitations,
  myRole,
  mailEnabled,
  onRenew,
  onRevoke,
}: {
  invitations: readonly Invitation[];
  myRole: string | undefined;
  mailEnabled: boolean;
  onRenew(i: Invitation): void;
  onRevoke(i: Invitation): void;
}) {
  const columns: Column<Invitation>[] = [
    { id: 'email', header: 'E-mail', rowHeader: true, cell: (i) => i.email },
    { id: 'role', header: 'Role', cell: (i) => ROLE_LABEL[i.role] ?? i.role },
    {
      id: 'expires',
      header: 'Expires',
      cell: (i) => (
        <>
          {i.status === 'expired' ? 'Expired ' : ''}
          <time dateTime={i.expiresAt}>{formatDateTime(i.expiresAt)}</time>
        </>
      ),
    },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      className: 'cell-actions',
      headerClassName: '',
      cell: (i) => (
        <>
          {assignable(myRole).includes(i.role as Role) && (
            <Button onPress={() => onRenew(i)} aria-label={`Renew invitation for ${i.email}`}>
              {mailEnabled ? 'Resend' : 'New link'}
            </Button>
          )}
          <Button variant="danger" onPress={() => onRevoke(i)} aria-label={`Revoke invitation for ${i.email}`}>
            Revoke
          </Button>
        </>
      ),
    },
  ];
  return (
    <DataTable
      label="Pending invitations"
      caption="Pending invitations"
      columns={columns}
      rows={invitations}
      rowKey={(i) => i.id}
      rowClassName={(i) => (i.status === 'expired' ? 'row-muted' : undefined)}
    />
  );
}
