import { useMemo } from 'react';
import { useMutation, useQuery } from 'urql';
import { Checkbox } from 'react-aria-components';
import { SelectField } from '../../components/select-field';
import { SettingsList, useSettingsList, type SettingsColumn } from '../../components/settings-list';
import { TextField } from '../../components/text-field';
import {
  AddExtractorDocument,
  DeleteExtractorDocument,
  ProjectExtractorsDocument,
  UpdateExtractorDocument,
  type ExtractorFactsFragment,
  type ExtractorKind,
  type ExtractorMatch,
  type ExtractorOutput,
} from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';

const KINDS: { id: ExtractorKind; label: string }[] = [
  { id: 'CSS', label: 'CSS selector' },
  { id: 'XPATH', label: 'XPath' },
  { id: 'REGEX', label: 'Regular expression' },
  { id: 'CONTAINS', label: 'Search: contains' },
  { id: 'NOT_CONTAINS', label: 'Search: does not contain' },
];
const OUTPUTS: { id: ExtractorOutput; label: string }[] = [
  { id: 'TEXT', label: 'Text' },
  { id: 'ATTRIBUTE', label: 'Attribute' },
  { id: 'INNER_HTML', label: 'Inner HTML' },
];
const MATCHES: { id: ExtractorMatch; label: string }[] = [
  { id: 'FIRST', label: 'First match' },
  { id: 'ALL', label: 'All matches (up to 50)' },
];
const KIND_LABEL = Object.fromEntries(KINDS.map((k) => [k.id, k.label])) as Record<ExtractorKind, string>;
const OUTPUT_LABEL = Object.fromEntries(OUTPUTS.map((o) => [o.id, o.label])) as Record<ExtractorOutput, string>;
// The API's detail paths (docs/custom-extraction.md#saving) to this form's labels.
const LABELS = { name: 'Extractor name', expression: 'Expression', attribute: 'Attribute name' };
// The list is asked for again when an extractor is added to a project without any (no CustomExtractor cached yet).
const EXTRACTOR_TYPENAMES = { additionalTypenames: ['CustomExtractor'] };
const EXPRESSION_HINT: Record<ExtractorKind, string> = {
  CSS: 'For example div.price or meta[name=author]',
  XPATH: "For example //span[@class='price'] or //meta[@property='og:type']/@content",
  REGEX: 'Over the page’s HTML; its first group, else the whole match. For example SKU-(\\d+)',
  CONTAINS: 'A text searched in the page’s HTML (or a regular expression, below)',
  NOT_CONTAINS: 'A text the page’s HTML must not contain (or a regular expression, below)',
};

interface Draft {
  id: string | null;
  name: string;
  kind: ExtractorKind;
  expression: string;
  output: ExtractorOutput;
  attribute: string;
  match: ExtractorMatch;
  regex: boolean;
  ignoreCase: boolean;
}
const EMPTY: Draft = {
  id: null,
  name: '',
  kind: 'CSS',
  expression: '',
  output: 'TEXT',
  attribute: '',
  match: 'FIRST',
  regex: false,
  ignoreCase: false,
};

const isSearch = (kind: ExtractorKind) => kind === 'CONTAINS' || kind === 'NOT_CONTAINS';
const hasOutput = (kind: ExtractorKind) => kind === 'CSS' || kind === 'XPATH';

/** What an extractor gives, in words: "Attribute content, first match", "Yes or no". */
function givesText(e: ExtractorFactsFragment): string {
  if (isSearch(e.kind)) return `Yes or no${e.regex ? ', regular expression' : ''}${e.ignoreCase ? ', any case' : ''}`;
  const what = hasOutput(e.kind)
    ? e.output === 'ATTRIBUTE'
      ? `Attribute ${e.attribute ?? ''}`
      : OUTPUT_LABEL[e.output]
    : `Match${e.ignoreCase ? ' (any case)' : ''}`;
  return `${what}, ${e.match === 'ALL' ? 'all matches' : 'first match'}`;
}

const toDraft = (e: ExtractorFactsFragment): Draft => ({
  id: e.id,
  name: e.name,
  kind: e.kind,
  expression: e.expression,
  output: e.output,
  attribute: e.attribute ?? '',
  match: e.match,
  regex: e.regex,
  ignoreCase: e.ignoreCase,
});

/** The list's columns: name and column, kind, expression (as text), what the extractor gives. */
const COLUMNS: SettingsColumn<ExtractorFactsFragment>[] = [
  {
    header: 'Extractor',
    cell: (e) => (
      <>
        {e.name}
        <br />
        <code className="small">{e.column}</code>
      </>
    ),
  },
  { header: 'Kind', cell: (e) => KIND_LABEL[e.kind] },
  { header: 'Expression', cell: (e) => <code>{e.expression}</code>, className: 'cell-url' },
  { header: 'Gives', cell: givesText },
];

/** The form's fields for a draft: those its kind uses (output and attribute for CSS/XPath, flags for searches). */
function ExtractorFields({
  draft,
  change,
  problem,
}: {
  draft: Draft;
  change: (patch: Partial<Draft>) => void;
  problem: ApiProblem | null;
}) {
  return (
    <>
      <TextField
        name="extractor-name"
        label={LABELS.name}
        description="Also the column's name in the pages explorer."
        value={draft.name}
        onChange={(name) => change({ name })}
        isRequired
        maxLength={80}
        errorMessage={problem?.fields.name ?? null}
      />
      <SelectField
        label="Extractor kind"
        options={KINDS}
        value={draft.kind}
        onChange={(kind) => change({ kind: kind as ExtractorKind })}
      />
      <TextField
        name="extractor-expression"
        label={LABELS.expression}
        description={EXPRESSION_HINT[draft.kind]}
        value={draft.expression}
        onChange={(expression) => change({ expression })}
        isRequired
        maxLength={1000}
        errorMessage={problem?.fields.expression ?? null}
      />
      {hasOutput(draft.kind) && (
        <SelectField
          label="Value taken"
          options={OUTPUTS}
          value={draft.output}
          onChange={(output) => change({ output: output as ExtractorOutput })}
        />
      )}
      {hasOutput(draft.kind) && draft.output === 'ATTRIBUTE' && (
        <TextField
          name="extractor-attribute"
          label={LABELS.attribute}
          description="For example content or href"
          value={draft.attribute}
          onChange={(attribute) => change({ attribute })}
          isRequired
          errorMessage={problem?.fields.attribute ?? null}
        />
      )}
      {!isSearch(draft.kind) && (
        <SelectField
          label="Matches kept"
          options={MATCHES}
          value={draft.match}
          onChange={(match) => change({ match: match as ExtractorMatch })}
        />
      )}
      {isSearch(draft.kind) && (
        <Checkbox className="checkbox" isSelected={draft.regex} onChange={(regex) => change({ regex })}>
          <span className="checkbox-box" aria-hidden="true" />
          The searched text is a regular expression
        </Checkbox>
      )}
      {(draft.kind === 'REGEX' || isSearch(draft.kind)) && (
        <Checkbox className="checkbox" isSelected={draft.ignoreCase} onChange={(ignoreCase) => change({ ignoreCase })}>
          <span className="checkbox-box" aria-hidden="true" />
          Ignore case
        </Checkbox>
      )}
    </>
  );
}

/**
 * A project's custom extractors and searches: CSS, XPath or regex rules (or contains / does-not-contain searches)
 * evaluated on each HTML page of its next audits, whose values become URL table columns (docs/custom-extraction.md).
 * The server checks each expression; its refusal shows at the field.
 */
export function ExtractionSection({ projectId }: { projectId: string }) {
  const context = useMemo(() => EXTRACTOR_TYPENAMES, []);
  const [{ data }] = useQuery({ query: ProjectExtractorsDocument, variables: { projectId }, context });
  const [addResult, add] = useMutation(AddExtractorDocument);
  const [updateResult, update] = useMutation(UpdateExtractorDocument);
  const [deleteResult, remove] = useMutation(DeleteExtractorDocument);
  const list = useSettingsList<ExtractorFactsFragment, Draft>(EMPTY, toDraft);
  const { draft } = list;
  const extractors = data?.project.extractors ?? [];
  const saveError = draft.id ? updateResult.error : addResult.error;
  const problem = list.submitted ? problemOf(saveError, LABELS) : null;

  function submit() {
    const input = {
      name: draft.name.trim(),
      kind: draft.kind,
      expression: draft.expression,
      output: hasOutput(draft.kind) ? draft.output : null,
      attribute: hasOutput(draft.kind) && draft.output === 'ATTRIBUTE' ? draft.attribute.trim() : null,
      match: isSearch(draft.kind) ? null : draft.match,
      regex: isSearch(draft.kind) ? draft.regex : null,
      ignoreCase: draft.kind === 'REGEX' || isSearch(draft.kind) ? draft.ignoreCase : null,
    };
    return list.save(
      () => (draft.id ? update({ id: draft.id, input }, context) : add({ projectId, input }, context)),
      `Saved extractor "${input.name}": its values come with the next audit.`,
    );
  }

  return (
    <SettingsList
      list={list}
      items={extractors}
      noun="extractor"
      title="Extraction"
      titleId="extraction-title"
      intro={
        <>
          Custom extractors read a value from every HTML page of the next audits — a price, an author, a schema type —
          and searches say whether a page contains a text. Each becomes a column of the pages explorer, and comparisons
          show the pages whose value changed. At most 20 per project.
        </>
      }
      caption="The project's custom extractors"
      columns={COLUMNS}
      problem={problem}
      isSaving={addResult.fetching || updateResult.fetching}
      onSubmit={submit}
      isDeleting={deleteResult.fetching}
      onDelete={(e) => remove({ id: e.id }, context)}
      deleteNote={<p>The next audits no longer run it. Past audits keep their values and their column.</p>}
    >
      <ExtractorFields draft={draft} change={list.change} problem={problem} />
    </SettingsList>
  );
}
