import { useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { Checkbox, CheckboxGroup, Input, Label, SearchField } from 'react-aria-components';
import { DataTable, Pager, useCursorPages, type Column } from '../../components/data-table';
import { useDocumentTitle } from '../../components/document-title';
import { EmptyState, ErrorMessage, Loading } from '../../components/status';
import {
  AuditPagesDocument,
  type AuditPagesQuery,
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
import { PageLink } from '../../components/page-link';
import { ExportButtons } from '../../components/export-buttons';

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

function statusClassName(code: number | null): string {
  if (code === null) return 'status-failed';
  return `status-${Math.floor(code / 100)}xx`;
}

type PageRow = AuditPagesQuery['audit']['pages']['nodes'][number];

/** The list's columns; `scope` makes the URL a link to the page view. */
function pageColumns(scope: { projectId: string; auditId: string }): Column<PageRow, AuditPageOrder>[] {
  return [
    {
      id: 'url',
      header: 'URL',
      sortKey: 'URL',
      rowHeader: true,
      className: 'cell-url',
      cell: (p) => (
        <>
          <PageLink scope={scope} url={p.url} className="url-text">
            {p.url}
          </PageLink>
          {p.kind && p.kind !== 'HTML' && <span className="muted small">{KIND_NOTE[p.kind]}</span>}
          {p.finalUrl && p.finalUrl !== p.url && <span className="muted small url-text">→ {p.finalUrl}</span>}
          {p.error && <span className="field-error small">{p.error}</span>}
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      sortKey: 'STATUS',
      numeric: true,
      cell: (p) => <span className={`status-code ${statusClassName(p.statusCode)}`}>{p.statusCode ?? '—'}</span>,
    },
    {
      id: 'title',
      header: 'Title',
      sortKey: 'TITLE',
      className: 'cell-title',
      cell: (p) => p.title ?? <span className="muted">No title</span>,
    },
    { id: 'depth', header: 'Depth', sortKey: 'DEPTH', numeric: true, cell: (p) => (p.depth < 0 ? 'sitemap' : p.depth) },
    { id: 'words', header: 'Words', sortKey: 'WORD_COUNT', numeric: true, cell: (p) => formatNumber(p.wordCount) },
    {
      id: 'response',
      header: 'Response',
      sortKey: 'RESPONSE_TIME',
      numeric: true,
      cell: (p) => (p.responseTimeMs === null ? '—' : `${formatNumber(p.responseTimeMs)} ms`),
    },
    { id: 'issues', header: 'Issues', sortKey: 'ISSUES', numeric: true, cell: (p) => p.issueCount },
  ];
}

const DIRECTION_LABEL: Record<SortDirection, string> = { ASC: 'ascending', DESC: 'descending' };

/** The sort's name in the table's caption. */
const ORDER_LABEL: Record<AuditPageOrder, string> = {
  URL: 'URL',
  STATUS: 'Status',
  TITLE: 'Title',
  DEPTH: 'Depth',
  WORD_COUNT: 'Words',
  RESPONSE_TIME: 'Response',
  ISSUES: 'Issues',
};

export function PagesExplorerPage() {
  const { projectId, auditId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const orderBy: AuditPageOrder = search.sort ?? 'URL';
  const direction: SortDirection = search.dir ?? 'ASC';
  const pages = useCursorPages(PAGE_SIZE);
  const after = pages.after;
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
    pages.reset();
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  };
  const sortBy = (order: AuditPageOrder) =>
    setSearch({ sort: order, dir: order === orderBy && direction === 'ASC' ? 'DESC' : 'ASC' });

  if (!data && fetching) return <Loading label="Loading pages…" />;
  if (!data) return <AuditLoadError projectId={projectId} error={error} />;

  const connection = data.audit.pages;
  const first = pages.firstRow;
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
        <DataTable
          label="Crawled pages"
          caption={`Crawled pages, sorted by ${ORDER_LABEL[orderBy]} ${DIRECTION_LABEL[direction]}`}
          className="table table-pages"
          columns={pageColumns({ projectId, auditId })}
          rows={connection.nodes}
          rowKey={(p) => p.id}
          sort={{ key: orderBy, direction, onSort: sortBy }}
        />
      )}

      <Pager
        label="Pages of results"
        hasPrevious={pages.hasPrevious}
        hasNext={connection.pageInfo.hasNextPage}
        busy={fetching}
        onPrevious={pages.previous}
        onNext={() => pages.next(connection.pageInfo.endCursor)}
      />
    </section>
  );
}
