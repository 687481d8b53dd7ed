import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import type { UrlTableFieldsQuery } from '../../gql/graphql';
import { OPERATOR_LABEL, VALUELESS, type BuiltFilter, type FilterRow } from './url-table-view';

export type UrlField = UrlTableFieldsQuery['urlTableFields'][number];

/** "Has issue X": the filter's pseudo-field (a check code as value). */
const ISSUE_FIELD: UrlField = {
  key: 'issue',
  label: 'Has issue (check code)',
  type: 'text',
  description: 'A check code, e.g. LINKS_INTERNAL_BROKEN.',
  sortable: false,
  filterable: true,
  options: [],
  operators: ['eq', 'neq'],
};

/** The column chooser: a checkbox per field of the URL table; the URL stays, the first column. */
export function ColumnChooser({
  fields,
  columns,
  defaults,
  onChange,
}: {
  fields: readonly UrlField[];
  columns: readonly string[];
  defaults: readonly string[];
  onChange: (columns: string[]) => void;
}) {
  // The choice is held here as well as in the URL: two quick changes must not undo each other while the URL updates.
  const [chosen, setChosen] = useState<readonly string[]>(columns);
  const toggle = (key: string, on: boolean) => {
    const next = on ? [...chosen.filter((c) => c !== key), key] : chosen.filter((c) => c !== key);
    setChosen(next);
    onChange(next);
  };
  return (
    <details className="card url-table-panel">
      <summary>Columns ({chosen.length})</summary>
      <fieldset className="column-chooser">
        <legend className="visually-hidden">Columns to show</legend>
        {fields
          .filter((f) => f.key !== 'url')
          .map((f) => (
            <label key={f.key} className="column-choice" title={f.description}>
              <input
                type="checkbox"
                checked={chosen.includes(f.key)}
                onChange={(e) => toggle(f.key, e.currentTarget.checked)}
              />{' '}
              {f.label}
            </label>
          ))}
      </fieldset>
      <Button
        onPress={() => {
          setChosen(defaults);
          onChange([...defaults]);
        }}
      >
        Default columns
      </Button>
    </details>
  );
}

const emptyRow = (field: UrlField): FilterRow => ({
  field: field.key,
  operator: field.operators[0] ?? 'eq',
  value: '',
  valueTo: '',
});

function ValueInput({
  field,
  label,
  value,
  onChange,
}: {
  field: UrlField | undefined;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const choices = field?.type === 'bool' ? ['true', 'false'] : field?.type === 'enum' ? field.options : null;
  if (choices)
    return (
      <select className="input" aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">Choose…</option>
        {choices.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  return (
    <input
      className="input"
      aria-label={label}
      inputMode={field?.type === 'number' ? 'decimal' : undefined}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

function ConditionRow({
  index,
  row,
  fields,
  onChange,
  onRemove,
}: {
  index: number;
  row: FilterRow;
  fields: readonly UrlField[];
  onChange: (row: FilterRow) => void;
  onRemove: () => void;
}) {
  const field = fields.find((f) => f.key === row.field);
  const n = index + 1;
  return (
    <li className="filter-row">
      <select
        className="input"
        aria-label={`Field of condition ${n}`}
        value={row.field}
        onChange={(e) => onChange(emptyRow(fields.find((f) => f.key === e.currentTarget.value) ?? fields[0]))}
      >
        {fields.map((f) => (
          <option key={f.key} value={f.key}>
            {f.label}
          </option>
        ))}
      </select>
      <select
        className="input"
        aria-label={`Operator of condition ${n}`}
        value={row.operator}
        onChange={(e) => onChange({ ...row, operator: e.currentTarget.value })}
      >
        {(field?.operators ?? []).map((o) => (
          <option key={o} value={o}>
            {OPERATOR_LABEL[o] ?? o}
          </option>
        ))}
      </select>
      {!VALUELESS.has(row.operator) && (
        <ValueInput
          field={field}
          label={`Value of condition ${n}`}
          value={row.value}
          onChange={(value) => onChange({ ...row, value })}
        />
      )}
      {row.operator === 'between' && (
        <ValueInput
          field={field}
          label={`Upper value of condition ${n}`}
          value={row.valueTo}
          onChange={(valueTo) => onChange({ ...row, valueTo })}
        />
      )}
      <Button onPress={onRemove} aria-label={`Remove condition ${n}`}>
        Remove
      </Button>
    </li>
  );
}

/** The filter builder: rows of field, operator and value, joined by AND or OR; applied to the URL on submit. */
export function FilterBuilder({
  fields,
  filter,
  onApply,
}: {
  fields: readonly UrlField[];
  filter: BuiltFilter | undefined;
  onApply: (filter: BuiltFilter | undefined) => void;
}) {
  const choices = [...fields.filter((f) => f.filterable), ISSUE_FIELD];
  const [draft, setDraft] = useState<BuiltFilter>(filter ?? { combinator: 'AND', rows: [] });
  const update = (index: number, row: FilterRow) =>
    setDraft((d) => ({ ...d, rows: d.rows.map((r, i) => (i === index ? row : r)) }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft.rows.length ? draft : undefined);
  };
  return (
    <details className="card url-table-panel" open={!!filter}>
      <summary>Filter builder{filter ? ` (${filter.rows.length})` : ''}</summary>
      <form onSubmit={submit} aria-label="Filter builder">
        <label className="field-label">
          Match{' '}
          <select
            className="input"
            value={draft.combinator}
            onChange={(e) => setDraft({ ...draft, combinator: e.currentTarget.value === 'OR' ? 'OR' : 'AND' })}
          >
            <option value="AND">all conditions (AND)</option>
            <option value="OR">any condition (OR)</option>
          </select>
        </label>
        <ol className="filter-rows">
          {draft.rows.map((row, i) => (
            <ConditionRow
              key={i}
              index={i}
              row={row}
              fields={choices}
              onChange={(r) => update(i, r)}
              onRemove={() => setDraft({ ...draft, rows: draft.rows.filter((_, k) => k !== i) })}
            />
          ))}
        </ol>
        <div className="filter-actions">
          <Button onPress={() => setDraft({ ...draft, rows: [...draft.rows, emptyRow(choices[0])] })}>
            Add condition
          </Button>
          <Button type="submit">Apply filter</Button>
          {filter && (
            <Button
              onPress={() => {
                setDraft({ combinator: 'AND', rows: [] });
                onApply(undefined);
              }}
            >
              Clear filter
            </Button>
          )}
        </div>
      </form>
    </details>
  );
}
