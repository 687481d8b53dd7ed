import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog, FormDialog } from '../../components/confirm-dialog';
import { FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import { CreateProjectDocument, DeleteProjectDocument, RenameProjectDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';

const LABELS = { url: 'Website URL', name: 'Name' };

/** "New project": the URL is required, the name defaults to the host; the API's validation shows at the field. */
export function NewProjectDialog({
  isOpen,
  onOpenChange,
  onCreated,
}: {
  isOpen: boolean;
  onOpenChange(open: boolean): void;
  onCreated(id: string): void;
}) {
  const [result, create] = useMutation(CreateProjectDocument);
  const [submitted, setSubmitted] = useState(false);
  const problem = submitted ? problemOf(result.error, LABELS) : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const name = String(data.get('name') ?? '').trim();
    setSubmitted(true);
    const res = await create({ input: { url: String(data.get('url') ?? '').trim(), ...(name ? { name } : {}) } });
    if (res.data) onCreated(res.data.createProject.id);
  }

  return (
    <FormDialog isOpen={isOpen} onOpenChange={(open) => (setSubmitted(false), onOpenChange(open))} title="New project">
      <Form className="form" onSubmit={(event) => void submit(event)} validationErrors={problem?.fields}>
        <FormProblem problem={problem} />
        <TextField
          name="url"
          label={LABELS.url}
          isRequired
          autoFocus
          placeholder="https://example.com"
          description="The page the crawl starts from, usually the home page."
          maxLength={2048}
        />
        <TextField name="name" label={LABELS.name} description="Optional: defaults to the host name." maxLength={100} />
        <div className="dialog-actions">
          <Button onPress={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" isPending={result.fetching}>
            Create project
          </Button>
        </div>
      </Form>
    </FormDialog>
  );
}

export interface ProjectRef {
  id: string;
  name: string;
  url: string;
}

export function RenameProjectDialog({ project, onClose }: { project: ProjectRef | null; onClose(): void }) {
  const [result, rename] = useMutation(RenameProjectDocument);
  const [submitted, setSubmitted] = useState(false);
  const problem = submitted ? problemOf(result.error, LABELS) : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!project) return;
    setSubmitted(true);
    const res = await rename({
      id: project.id,
      input: { name: String(new FormData(event.currentTarget).get('name') ?? '').trim() },
    });
    if (res.data) onClose();
  }

  return (
    <FormDialog
      isOpen={project !== null}
      onOpenChange={(open) => !open && (setSubmitted(false), onClose())}
      title="Edit project"
    >
      {project && (
        <Form className="form" onSubmit={(event) => void submit(event)} validationErrors={problem?.fields}>
          <FormProblem problem={problem} />
          <p className="muted">
            Website: <span className="url-text">{project.url}</span>
          </p>
          <TextField name="name" label={LABELS.name} isRequired defaultValue={project.name} autoFocus maxLength={100} />
          <div className="dialog-actions">
            <Button onPress={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" isPending={result.fetching}>
              Save
            </Button>
          </div>
        </Form>
      )}
    </FormDialog>
  );
}

export function DeleteProjectDialog({
  project,
  onClose,
  onDeleted,
}: {
  project: ProjectRef | null;
  onClose(): void;
  onDeleted(): void;
}) {
  const [result, remove] = useMutation(DeleteProjectDocument);
  const problem = problemOf(result.error);
  async function confirmDelete() {
    if (!project) return;
    const res = await remove({ id: project.id });
    if (res.data) onDeleted();
  }
  return (
    <ConfirmDialog
      isOpen={project !== null}
      onOpenChange={(open) => !open && onClose()}
      title={project ? `Delete ${project.name}?` : 'Delete project'}
      confirmLabel="Delete project"
      isPending={result.fetching}
      onConfirm={() => void confirmDelete()}
    >
      <p>
        This removes the project with all its audits, keywords, competitors and reports. An audit that is running is
        cancelled. This cannot be undone.
      </p>
      {problem && (
        <p className="field-error" role="alert">
          {problem.message}
        </p>
      )}
    </ConfirmDialog>
  );
}
