import { Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import type { ReactNode } from 'react';
import type { Severity } from '../gql/graphql';
import { SEVERITY_LABEL } from '../lib/labels';

/** The severities, most severe first: the order of every filter and count. */
export const SEVERITIES: readonly Severity[] = ['CRITICAL', 'WARNING', 'NOTICE'];

/** A severity's badge ("Critical", "Warning", "Notice"), or the text given. */
export function SeverityBadge({ severity, children }: { severity: Severity; children?: ReactNode }) {
  return <span className={`badge badge-${severity.toLowerCase()}`}>{children ?? SEVERITY_LABEL[severity]}</span>;
}

/**
 * The severity filter: a checkbox per severity (none checked: all shown), each with its count when `counts` is
 * given. `onChange` gets undefined when none is checked.
 */
export function SeverityFilter({
  value,
  onChange,
  counts,
}: {
  value: readonly Severity[] | undefined;
  onChange: (severities: Severity[] | undefined) => void;
  counts?: Record<Severity, number>;
}) {
  return (
    <CheckboxGroup
      className="filter-group"
      value={[...(value ?? [])]}
      onChange={(next) => onChange(next.length ? (next as Severity[]) : undefined)}
    >
      <Label className="field-label">Severity</Label>
      <div className="checkbox-row">
        {SEVERITIES.map((s) => (
          <Checkbox key={s} value={s} className="checkbox">
            <span className="checkbox-box" aria-hidden="true" />
            {SEVERITY_LABEL[s]}
            {counts && ` (${counts[s]})`}
          </Checkbox>
        ))}
      </div>
    </CheckboxGroup>
  );
}
