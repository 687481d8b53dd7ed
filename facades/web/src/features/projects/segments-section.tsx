import { useMemo } from 'react';
import { useMutation, useQuery } from 'urql';
import { SelectField } from '../../components/select-field';
import { SettingsList, useSettingsList, type SettingsColumn } from '../../components/settings-list';
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
import { problemOf } from '../../lib/api-problem';
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

const toDraft = (s: SegmentFactsFragment): Draft => ({
  id: s.id,
  name: s.name,
  kind: s.kind,
  pattern: s.pattern ?? '',
  filter: builtFilterOf(s.filter),
});

/** The list's columns: the segment's name heads its row, then its rule. */
const COLUMNS: SettingsColumn<SegmentFactsFragment>[] = [
  { header: 'Name', cell: (s) => s.name },
  { header: 'Rule', cell: ruleText, className: 'cell-url' },
];

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
  const list = useSettingsList<SegmentFactsFragment, Draft>(EMPTY, toDraft);
  const { draft, change } = list;
  const segments = data?.project.segments ?? [];
  const saveError = draft.id ? updateResult.error : createResult.error;
  const problem = list.submitted ? problemOf(saveError, LABELS) : null;

  function submit() {
    const input = {
      name: draft.name.trim(),
      kind: draft.kind,
      pattern: draft.kind === 'FILTER' ? null : draft.pattern.trim(),
      filter: draft.kind === 'FILTER' && draft.filter ? builtFilterInput(draft.filter) : null,
    };
    return list.save(
      () => (draft.id ? update({ projectId, id: draft.id, input }, context) : create({ projectId, input }, context)),
      `Saved segment "${input.name}".`,
    );
  }

  return (
    <SettingsList
      list={list}
      items={segments}
      noun="segment"
      title="Segments"
      titleId="segments-title"
      intro={
        <>
          Named sets of URLs — the blog, the shop, thin pages — each with its own score, health and issue counts in
          every audit and comparison, and a choice in the pages explorer. At most 50 per project.
        </>
      }
      caption="The project's segments"
      columns={COLUMNS}
      aboveForm={
        draft.kind === 'FILTER' &&
        fields.data && (
          <FilterBuilder
            key={draft.id ?? 'new'}
            fields={fields.data.urlTableFields}
            filter={draft.filter}
            onApply={(filter) => change({ filter })}
          />
        )
      }
      problem={problem}
      isSaving={createResult.fetching || updateResult.fetching}
      onSubmit={submit}
      isDeleting={deleteResult.fetching}
      onDelete={(s) => remove({ projectId, id: s.id }, context)}
      deleteNote={
        <p>Audits and comparisons stop showing it. Its rule is deleted; the audits themselves are not changed.</p>
      }
    >
      <TextField
        name="segment-name"
        label="Segment name"
        value={draft.name}
        onChange={(name) => change({ name })}
        isRequired
        maxLength={80}
        errorMessage={problem?.fields['input.name'] ?? null}
      />
      <SelectField
        label="Rule kind"
        options={KINDS}
        value={draft.kind}
        onChange={(kind) => change({ kind: kind as SegmentKind })}
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
          onChange={(pattern) => change({ pattern })}
          isRequired
          errorMessage={problem?.fields['input.pattern'] ?? null}
        />
      )}
    </SettingsList>
  );
}
