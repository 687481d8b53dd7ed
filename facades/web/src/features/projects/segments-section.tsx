import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SelectField } from '../../components/select-field';
import { FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  CreateSegmentDocument,
  DeleteSegmentDocument,
  ProjectSegmentsDocument,
  UpdateSegmentDocument,
  UrlTableFieldsDocument,
  type SegmentFactsFragment,
  type SegmentKind,
} from '../../gql/graphql';
import { formLevelProblem, problemOf } from '../../lib/api-problem';
import { FilterBuilder, builtFilterInput, builtFilterOf, type BuiltFilter } from '../audits';

const KINDS: { id: SegmentKind; label: string }[] = [
  { id: 'PATH', label: 'Path prefix' },
  { id: 'REGEX', label: 'URL regular expression' },
  { id: 'FILTER', label: 'Saved filter' },
];
const LABELS = { 'input.name': 'Segment name', 'input.pattern': 'Rule', 'input.filter': 'Filter' };
// The list is asked for again when a segment is created in an empty project (no Segment in its cached answer yet).
const SEGMENT_TYPENAMES = { additionalTypenames: ['Segment'] };

interface Draft {
  id: string | null;
  name: string;
  kind: SegmentKind;
  pattern: string;
  filter: BuiltFilter | undefined;
}
const EMPTY: Draft = { id: null, name: '', kind: 'PATH', pattern: '', filter: undefined };

const filterNote = (f: BuiltFilter) =>
  `The filter above (${f.rows.length} condition${f.rows.length === 1 ? '' : 's'}) is the rule.`;

const ruleText = (s: SegmentFactsFragment): string => {
  if (s.kind !== 'FILTER') return `${s.kind === 'PATH' ? 'Path starts with' : 'URL matches'} ${s.pattern ?? ''}`;
  const rows = builtFilterOf(s.filter)?.rows.length ?? 0;
  return `Filter of ${rows} condition${rows === 1 ? '' : 's'}`;
};

/** The project's segments with their rules, each with Edit and Delete. */
function SegmentList({
  segments,
  onEdit,
  onDelete,
}: {
  segments: readonly SegmentFactsFragment[];
  onEdit: (s: SegmentFactsFragment) => void;
  onDelete: (s: SegmentFactsFragment) => void;
}) {
  if (!segments.length) return <p className="muted">No segments yet.</p>;
  return (
    <table className="table">
      <caption className="visually-hidden">The project&apos;s segments</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Rule</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {segments.map((s) => (
          <tr key={s.id}>
            <th scope="row">{s.name}</th>
            <td className="cell-url">{ruleText(s)}</td>
            <td>
              <Button variant="quiet" onPress={() => onEdit(s)} aria-label={`Edit segment ${s.name}`}>
                Edit
              </Button>
              <Button variant="danger" onPress={() => onDelete(s)} aria-label={`Delete segment ${s.name}`}>
                Delete
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A project's segments: named sets of URLs (a path prefix, a URL regex or a saved URL-table filter) whose scores,
 * health and issues each audit and comparison show (docs/segments.md).
 */
export function SegmentsSection({ projectId }: { projectId: string }) {
  const context = useMemo(() => SEGMENT_TYPENAMES, []);
  const [{ data }] = useQuery({ query: ProjectSegmentsDocument, variables: { projectId }, context });
  const [fields] = useQuery({ query: UrlTableFieldsDocument });
  const [createResult, create] = useMutation(CreateSegmentDocument);
  const [updateResult, update] = useMutation(UpdateSegmentDocument);
  const [deleteResult, remove] = useMutation(DeleteSegmentDocument);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SegmentFactsFragment | null>(null);
  const segments = data?.project.segments ?? [];
  const saveError = draft.id ? updateResult.error : createResult.error;
  const problem = submitted ? problemOf(saveError, LABELS) : null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setMessage(null);
    const input = {
      name: draft.name.trim(),
      kind: draft.kind,
      pattern: draft.kind === 'FILTER' ? null : draft.pattern.trim(),
      filter: draft.kind === 'FILTER' && draft.filter ? builtFilterInput(draft.filter) : null,
    };
    const res = draft.id
      ? await update({ projectId, id: draft.id, input }, context)
      : await create({ projectId, input }, context);
    if (res.data) {
      setMessage(`Saved segment "${input.name}".`);
      setDraft(EMPTY);
      setSubmitted(false);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    const res = await remove({ projectId, id: deleting.id }, context);
    if (res.data) setMessage(`Deleted segment "${deleting.name}".`);
    setDeleting(null);
  }

  const edit = (s: SegmentFactsFragment) => {
    setSubmitted(false);
    setMessage(null);
    setDraft({ id: s.id, name: s.name, kind: s.kind, pattern: s.pattern ?? '', filter: builtFilterOf(s.filter) });
  };

  return (
    <section className="card" aria-labelledby="segments-title">
      <h2 id="segments-title">Segments</h2>
      <p className="muted small">
        Named sets of URLs — the blog, the shop, thin pages — each with its own score, health and issue counts in every
        audit and comparison, and a choice in the pages explorer. At most 50 per project.
      </p>
      <SegmentList segments={segments} onEdit={edit} onDelete={setDeleting} />

      <h3>{draft.id ? `Edit segment "${segments.find((s) => s.id === draft.id)?.name ?? ''}"` : 'New segment'}</h3>
      {draft.kind === 'FILTER' && fields.data && (
        <FilterBuilder
          key={draft.id ?? 'new'}
          fields={fields.data.urlTableFields}
          filter={draft.filter}
          onApply={(filter) => setDraft((d) => ({ ...d, filter }))}
        />
      )}
      <Form className="form" onSubmit={(event) => void submit(event)} validationBehavior="aria" aria-label="Segment">
        <FormProblem problem={formLevelProblem(problem)} />
        <TextField
          name="segment-name"
          label="Segment name"
          value={draft.name}
          onChange={(name) => setDraft((d) => ({ ...d, name }))}
          isRequired
          maxLength={80}
          errorMessage={problem?.fields['input.name'] ?? null}
        />
        <SelectField
          label="Rule kind"
          options={KINDS}
          value={draft.kind}
          onChange={(kind) => setDraft((d) => ({ ...d, kind: kind as SegmentKind }))}
        />
        {draft.kind === 'FILTER' ? (
          <p className="small" role="status">
            {draft.filter ? filterNote(draft.filter) : 'Build the filter above and apply it; it becomes the rule.'}
            {problem?.fields['input.filter'] ? ` ${problem.fields['input.filter']}` : ''}
          </p>
        ) : (
          <TextField
            name="segment-pattern"
            label={draft.kind === 'PATH' ? 'Path prefix' : 'URL regular expression'}
            description={draft.kind === 'PATH' ? 'For example /blog/' : 'For example /shop/[a-z-]+$'}
            value={draft.pattern}
            onChange={(pattern) => setDraft((d) => ({ ...d, pattern }))}
            isRequired
            errorMessage={problem?.fields['input.pattern'] ?? null}
          />
        )}
        <div className="form-actions">
          <Button type="submit" variant="primary" isPending={createResult.fetching || updateResult.fetching}>
            {draft.id ? 'Save segment' : 'Add segment'}
          </Button>
          {draft.id && <Button onPress={() => setDraft(EMPTY)}>Cancel editing</Button>}
        </div>
        {message && (
          <p className="small" role="status">
            {message}
          </p>
        )}
      </Form>
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete segment "${deleting?.name ?? ''}"?`}
        confirmLabel="Delete segment"
        onConfirm={() => void confirmDelete()}
        isPending={deleteResult.fetching}
      >
        <p>Audits and comparisons stop showing it. Its rule is deleted; the audits themselves are not changed.</p>
      </ConfirmDialog>
    </section>
  );
}
