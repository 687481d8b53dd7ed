import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { FormDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/text-field';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth } from '../../lib/auth-call';
import type { Role } from './members-parts';
import { InvitationLinkView, RoleSelect, assignable, linkOf } from './members-parts';

export function InviteDialog({
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
