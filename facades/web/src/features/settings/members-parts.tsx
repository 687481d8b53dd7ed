import { Callout } from '../../components/status';
import { TextField } from '../../components/text-field';
import { CopyButton } from '../../components/copy-button';

export const ROLE_LABEL: Record<string, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
export const ROLES = ['member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export interface Invitation {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
}

export interface MemberRow {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: string;
}

export const iso = (value: unknown): string => new Date(value as string).toISOString();
/** The invite endpoint's answer carries the link (with its secret) for the inviter, once: only its hash is kept. */
export const linkOf = (data: unknown): string | null => {
  const link = (data as { link?: unknown } | null)?.link;
  return typeof link === 'string' ? link : null;
};

/** An invitation's link, as its inviter gets it when the invitation is made or renewed. */
export function InvitationLinkView({
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
export const assignable = (myRole: string | undefined): Role[] =>
  myRole === 'owner' ? [...ROLES] : myRole === 'admin' ? ['member', 'admin'] : [];

export function RoleSelect({
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
