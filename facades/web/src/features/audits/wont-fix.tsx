import { useState } from 'react';
import { Form } from 'react-aria-components';
import { useMutation } from 'urql';
import { Button } from '../../components/button';
import { FormDialog } from '../../components/confirm-dialog';
import { FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import { MarkWontFixDocument, UndoWontFixDocument, type WontFixMarkFragment } from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatDateTime } from '../../lib/format';

/** As the API bounds it (src/audits/wont-fix.service.ts). */
export const WONT_FIX_REASON_MAX = 500;

/** Whatever shows scores, issue counts or occurrences is read again after a marking changes. */
const REFRESH = { additionalTypenames: ['Audit', 'Issue', 'IssueOccurrence', 'Project', 'WontFix'] };

/** Who marked it, when and why: a sentence. */
export function WontFixNote({ marking }: { marking: WontFixMarkFragment }) {
  return (
    <span className="wont-fix-note">
      <strong>Won't fix</strong>: {marking.reason} — {marking.markedByName}, {formatDateTime(marking.markedAt)}
    </span>
  );
}

/** "Undo": the marking goes, its occurrence counts again in the latest audit's score. */
export function UndoWontFixButton({ projectId, marking }: { projectId: string; marking: WontFixMarkFragment }) {
  const [{ fetching, error }, undo] = useMutation(UndoWontFixDocument);
  return (
    <>
      <Button
        variant="quiet"
        isPending={fetching}
        onPress={() => void undo({ projectId, id: marking.id }, REFRESH)}
        aria-label={`Undo won't fix of ${marking.url}`}
      >
        Undo
      </Button>
      <FormProblem problem={problemOf(error)} />
    </>
  );
}

/** The dialog asking why (required, at most WONT_FIX_REASON_MAX characters). */
function WontFixDialog({
  isOpen,
  onOpenChange,
  projectId,
  auditId,
  code,
  url,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  projectId: string;
  auditId: string;
  code: string;
  url: string;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [{ fetching }, mark] = useMutation(MarkWontFixDocument);
  const close = (open: boolean) => {
    if (!open) {
      setReason('');
      setProblem(null);
    }
    onOpenChange(open);
  };
  async function submit() {
    setProblem(null);
    const res = await mark({ projectId, input: { auditId, code, url, reason } }, REFRESH);
    if (res.error) return setProblem(problemOf(res.error, { reason: 'Reason' }));
    close(false);
  }
  return (
    <FormDialog isOpen={isOpen} onOpenChange={close} title="Won't fix" isDismissable={!fetching}>
      <Form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p className="small url-text">{url}</p>
        <TextField
          label="Reason"
          multiline
          rows={3}
          value={reason}
          onChange={setReason}
          autoFocus
          isRequired
          maxLength={WONT_FIX_REASON_MAX}
          description="Seen by everyone in the organization. Left out of the score while this page stays as it is."
          errorMessage={problem?.fields.reason}
        />
        <FormProblem problem={problem} />
        <div className="dialog-actions">
          <Button onPress={() => close(false)} isDisabled={fetching}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" isPending={fetching}>
            Mark as won't fix
          </Button>
        </div>
      </Form>
    </FormDialog>
  );
}

/** An affected URL's "won't fix": who marked it and Undo, or the button that asks why. */
export function WontFixControl(props: {
  projectId: string;
  auditId: string;
  code: string;
  url: string;
  marking: WontFixMarkFragment | null;
}) {
  const [open, setOpen] = useState(false);
  if (props.marking)
    return (
      <div className="wont-fix">
        <WontFixNote marking={props.marking} />
        <UndoWontFixButton projectId={props.projectId} marking={props.marking} />
      </div>
    );
  return (
    <div className="wont-fix">
      <Button variant="quiet" onPress={() => setOpen(true)} aria-label={`Won't fix ${props.url}`}>
        Won't fix
      </Button>
      <WontFixDialog isOpen={open} onOpenChange={setOpen} {...props} />
    </div>
  );
}
