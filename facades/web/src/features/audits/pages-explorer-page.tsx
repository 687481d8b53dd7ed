import { useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { Checkbox, CheckboxGroup, Input, Label, SearchField } from 'react-aria-components';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { EmptyState, ErrorMessage, Loading } from '../../components/status';
import {
  AuditPagesDocument,
  type AuditPageKind,
  type AuditPageOrder,
  type SortDirection,
  type StatusClass,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';
import { useLivePoll } from '../../lib/use-live-poll';
import { AuditHeading, AuditLoadError } from './audit-heading';
import { PAGE_KINDS, STATUS_CLASSES, type PageSearch } from './search-params';
import { PageLink } from './page-link';
import { ExportButtons } from '../reports';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId/pages');
const PAGE_SIZE = 50;
/** How long the list of a just-cancelled audit is read again while its worker saves the last pages. */
const SETTLE_WAIT_MS = 30_000;

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

/** What a row that is not an HTML page is, under its URL. */
const KIND_NOTE: Record<AuditPageKind, string> = {
  HTML: 'HTML page',
  REDIRECT: 'Redirect',
  ERROR: 'Error response',
  FILE: 'File, not HTML',
  FAILED: 'No response',
};

const COLUMNS: { order: AuditPageOrder; label: string; numeric?: boolean }[] = [
  { order: 'URL', label: 'URL' },
  { order: 'STATUS', label: 'Status', numeric: true },
  { order: 'TITLE', label: 'Title' },
  { order: 'DEPTH', label: 'Depth', numeric: true },
  { order: 'WORD_COUNT', label: 'Words', numeric: true },
  { order: 'RESPONSE_TIME', label: 'Response', numeric: true },
  { order: 'ISSUES', label: 'Issues', numeric: true },
];

function statusClassName(code: number | null): string {
  if (code === null) return 'status-failed';
  return `status-${Math.floor(code / 100)}xx`;
}

export function PagesExplorerPage() {
  const { projectId, auditId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const orderBy: AuditPageOrder = search.sort ?? 'URL';
  const direction: SortDirection = search.dir ?? 'ASC';
  /** Cursors of the pages before the current one: "Previous" pops, "Next" pushes. */
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1];
  const filter = {
    statusClass: search.status ?? null,
    kind: search.kind ?? null,
    hasIssues: search.issues ?? null,
    search: search.q ?? null,
  };
  const [{ data, fetching, error }, refetch] = useQuery({
    query: AuditPagesDocument,
    variables: { projectId, auditId, first: PAGE_SIZE, after, orderBy, direction, filter },
  });
  // A cancelled audit's worker writes the pages it crawled a moment after the cancel: until the stored pages reach
  // the count the audit reports, the list is read again (from every second, backing off, for up to half a minute).
  const filtered = !!(search.status || search.kind || search.issues || search.q);
  const settling =
    !!data && !filtered && data.audit.status === 'CANCELLED' && data.audit.pages.totalCount < data.audit.pagesCrawled;
  useLivePoll(() => refetch({ requestPolicy: 'network-only' }), {
    active: settling,
    firstMs: 1_000,
    maxMs: 4_000,
    stopAfterMs: SETTLE_WAIT_MS,
  });
  const [text, setText] = useState(search.q ?? '');
  useDocumentTitle(data ? `Pages · ${data.project.name}` : 'Crawled pages');

  const setSearch = (patch: Partial<PageSearch>) => {
    setCursors([null]);
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  };
  const sortBy = (order: AuditPageOrder) =>
    setSearch({ sort: order, dir: order === orderBy && direction === 'ASC' ? 'DESC' : 'ASC' });

  if (!data && fetching) return <Loading label="Loading pages…" />;
  if (!data) return <AuditLoadError projectId={projectId} error={error} />;

  const connection = data.audit.pages;
  const first = (cursors.length - 1) * PAGE_SIZE + 1;
  const last = first + connection.nodes.length - 1;

  return (
    <section className="page" aria-labelledby="audit-title">
      <AuditHeading projectId={projectId} projectName={data.project.name} audit={data.audit} view="pages" />

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

      <div className="list-toolbar">
        <p className="muted" role="status" aria-live="polite">
          {connection.totalCount === 0
            ? 'No URLs match.'
            : `URLs ${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(connection.totalCount)}`}
          {fetching && ' · updating…'}
        </p>
        {data.audit.pagesCrawled > 0 && <ExportButtons projectId={projectId} kind="pages" auditId={auditId} />}
      </div>
      <ErrorMessage problem={problemOf(error)} />

      {connection.totalCount === 0 ? (
        <EmptyState title="No pages to show">
          <p>
            {filtered
              ? 'No crawled page matches these filters.'
              : settling
                ? 'The pages crawled before the cancel are being saved…'
                : 'This audit has no crawled pages yet.'}
          </p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table table-pages">
            <caption className="visually-hidden">
              Crawled pages, sorted by {COLUMNS.find((c) => c.order === orderBy)?.label}{' '}
              {direction === 'ASC' ? 'ascending' : 'descending'}
            </caption>
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th
                    key={c.order}
                    scope="col"
                    aria-sort={c.order === orderBy ? (direction === 'ASC' ? 'ascending' : 'descending') : 'none'}
                    className={c.numeric ? 'numeric' : undefined}
                  >
                    <button type="button" className="sort-button" onClick={() => sortBy(c.order)}>
                      {c.label}
                      <span aria-hidden="true" className="sort-mark">
                        {c.order === orderBy ? (direction === 'ASC' ? '▲' : '▼') : '↕'}
                      </span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {connection.nodes.map((p) => (
                <tr key={p.id}>
                  <th scope="row" className="cell-url">
                    <PageLink scope={{ projectId, auditId }} url={p.url} className="url-text">
                      {p.url}
                    </PageLink>
                    {p.kind && p.kind !== 'HTML' && <span className="muted small">{KIND_NOTE[p.kind]}</span>}
                    {p.finalUrl && p.finalUrl !== p.url && <span className="muted small url-text">→ {p.finalUrl}</span>}
                    {p.error && <span className="field-error small">{p.error}</span>}
                  </th>
                  <td className="numeric">
                    <span className={`status-code ${statusClassName(p.statusCode)}`}>{p.statusCode ?? '—'}</span>
                  </td>
                  <td className="cell-title">{p.title ?? <span className="muted">No title</span>}</td>
                  <td className="numeric">{p.depth < 0 ? 'sitemap' : p.depth}</td>
                  <td className="numeric">{formatNumber(p.wordCount)}</td>
                  <td className="numeric">
                    {p.responseTimeMs === null ? '—' : `${formatNumber(p.responseTimeMs)} ms`}
                  </td>
                  <td className="numeric">{p.issueCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <nav className="pager" aria-label="Pages of results">
        <Button onPress={() => setCursors((c) => c.slice(0, -1))} isDisabled={cursors.length < 2 || fetching}>
          Previous
        </Button>
        <Button
          onPress={() => setCursors((c) => [...c, connection.pageInfo.endCursor])}
          isDisabled={!connection.pageInfo.hasNextPage || fetching}
        >
          Next
        </Button>
      </nav>
    </section>
  );
}
