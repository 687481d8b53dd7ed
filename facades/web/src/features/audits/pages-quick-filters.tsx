import { useState } from 'react';
import { Checkbox, CheckboxGroup, Input, Label, SearchField } from 'react-aria-components';
import type { AuditPageKind, StatusClass } from '../../gql/graphql';
import { PAGE_KINDS, STATUS_CLASSES, type PageSearch } from './search-params';

const STATUS_LABEL: Record<StatusClass, string> = {
  SUCCESS: '2xx',
  REDIRECT: '3xx',
  CLIENT_ERROR: '4xx',
  SERVER_ERROR: '5xx',
  FAILED: 'No response',
};

const KIND_LABEL: Record<AuditPageKind, string> = {
  HTML: 'HTML pages',
  REDIRECT: 'Redirects',
  ERROR: 'Error responses',
  FILE: 'Other files',
  FAILED: 'No response',
};

/** The explorer's quick filters (status class, kind, with issues, search of URL and title), kept in the URL. */
export function PagesQuickFilters({
  search,
  setSearch,
}: {
  search: PageSearch;
  setSearch: (patch: Partial<PageSearch>) => void;
}) {
  const [text, setText] = useState(search.q ?? '');
  return (
    <div className="filters card" role="search" aria-label="Filter pages">
      <CheckboxGroup
        className="filter-group"
        value={search.status ?? []}
        onChange={(value) => setSearch({ status: value.length ? (value as StatusClass[]) : undefined })}
      >
        <Label className="field-label">Status</Label>
        <div className="checkbox-row">
          {STATUS_CLASSES.map((s) => (
            <Checkbox key={s} value={s} className="checkbox">
              <span className="checkbox-box" aria-hidden="true" />
              {STATUS_LABEL[s]}
            </Checkbox>
          ))}
        </div>
      </CheckboxGroup>
      <CheckboxGroup
        className="filter-group"
        value={search.kind ?? []}
        onChange={(value) => setSearch({ kind: value.length ? (value as AuditPageKind[]) : undefined })}
      >
        <Label className="field-label">Type</Label>
        <div className="checkbox-row">
          {PAGE_KINDS.map((k) => (
            <Checkbox key={k} value={k} className="checkbox">
              <span className="checkbox-box" aria-hidden="true" />
              {KIND_LABEL[k]}
            </Checkbox>
          ))}
        </div>
      </CheckboxGroup>
      <Checkbox
        className="checkbox filter-single"
        isSelected={search.issues ?? false}
        onChange={(on) => setSearch({ issues: on || undefined })}
      >
        <span className="checkbox-box" aria-hidden="true" />
        Only pages with issues
      </Checkbox>
      <SearchField
        className="field search-field"
        value={text}
        onChange={setText}
        onSubmit={(value) => setSearch({ q: value || undefined })}
        onClear={() => setSearch({ q: undefined })}
      >
        <Label className="field-label">Search URL or title</Label>
        <Input className="input" placeholder="Press Enter to search" />
      </SearchField>
    </div>
  );
}
