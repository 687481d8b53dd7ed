import { useEffect, useRef, useState, type ReactNode } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { DataTable, Pager, useCursorPages, type Column } from '../../components/data-table';
import { useDocumentTitle } from '../../components/document-title';
import { EmptyState, ErrorMessage, Loading } from '../../components/status';
import { AuditUrlTableDocument, UrlTableFieldsDocument, type AuditUrlTableQuery } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';
import { currentSession } from '../../lib/session';
import { useLivePoll } from '../../lib/use-live-poll';
import { AuditHeading, AuditLoadError } from './audit-heading';
import type { PageSearch } from './search-params';
import { PageLink } from '../../components/page-link';
import { PagesQuickFilters } from './pages-quick-filters';
import { ColumnChooser, FilterBuilder } from './url-table-controls';
import { ExportAsShown } from './url-table-export';
import { DEFAULT_COLUMNS, saveColumns, savedColumns, tableFilter, tableSort } from './url-table-view';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId/pages');
const PAGE_SIZE = 50;
/** How long the list of a just-cancelled audit is read again while its worker saves the last pages. */
const SETTLE_WAIT_MS = 30_000;

type Table = AuditUrlTableQuery['audit']['urlTable'];
type Row = Table['rows'][number];
type TableColumn = Table['columns'][number];

function statusClassName(code: number | null): string {
  if (code === null) return 'status-failed';
  return `status-${Math.floor(code / 100)}xx`;
}

/** One cell as text: crawled content is rendered as text, never markup. */
function cellOf(column: TableColumn, value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>;
  if (column.key === 'status')
    return <span className={`status-code ${statusClassName(value as number)}`}>{String(value)}</span>;
  if (column.type === 'bool') return value ? 'Yes' : 'No';
  if (column.type === 'number' && typeof value === 'number') return formatNumber(value);
  return String(value);
}

/** The table's columns: the URL names its row and links to the page view; every sortable header sorts. */
function tableColumns(columns: readonly TableColumn[], scope: { projectId: string; auditId: string }) {
  return columns.map((c, i): Column<Row> => ({
    id: c.key,
    header: c.label,
    sortKey: c.sortable ? c.key : undefined,
    numeric: c.type === 'number',
    rowHeader: c.key === 'url',
    className: c.key === 'url' ? 'cell-url' : c.key === 'title' ? 'cell-title' : undefined,
    cell: (row) =>
      c.key === 'url' ? (
        <PageLink scope={scope} url={row.url} className="url-text">
          {row.url}
        </PageLink>
      ) : (
        cellOf(c, row.values[i])
      ),
  }));
}

/** The signed-in user's id (the column choice is remembered per user in this browser); undefined until known. */
function useUserId(): string | null | undefined {
  const [id, setId] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    void currentSession().then((s) => setId(s?.user.id ?? null));
  }, []);
  return id;
}

export function PagesExplorerPage() {
  const { projectId, auditId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const userId = useUserId();
  const chosen = search.cols ?? savedColumns(userId ?? null) ?? DEFAULT_COLUMNS;
  const columns = ['url', ...chosen.filter((k) => k !== 'url')];
  const sort = tableSort(search);
  const filter = tableFilter(search);
  const pages = useCursorPages(PAGE_SIZE);
  const [fields] = useQuery({ query: UrlTableFieldsDocument, variables: { auditId } });
  const [{ data: fresh, fetching, error }, refetch] = useQuery({
    query: AuditUrlTableDocument,
    variables: { projectId, auditId, first: PAGE_SIZE, after: pages.after, columns, sort, filter },
    // The user's saved columns are known first, so that the table is asked for once.
    pause: userId === undefined,
  });
  // While a new view loads, the last one stays on screen (the controls keep their state and focus).
  const previous = useRef<AuditUrlTableQuery | undefined>(undefined);
  if (fresh) previous.current = fresh;
  const data = fresh ?? previous.current;
  // A cancelled audit's worker writes the pages it crawled a moment after the cancel: until the stored pages reach
  // the count the audit reports, the list is read again (from every second, backing off, for up to half a minute).
  const filtered = filter !== null;
  const settling =
    !!data &&
    !filtered &&
    data.audit.status === 'CANCELLED' &&
    data.audit.urlTable.totalCount < data.audit.pagesCrawled;
  useLivePoll(() => refetch({ requestPolicy: 'network-only' }), {
    active: settling,
    firstMs: 1_000,
    maxMs: 4_000,
    stopAfterMs: SETTLE_WAIT_MS,
  });
  useDocumentTitle(data ? `Pages · ${data.project.name}` : 'Crawled pages');

  const setSearch = (patch: Partial<PageSearch>) => {
    pages.reset();
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  };
  const chooseColumns = (next: string[]) => {
    const chosen = ['url', ...next.filter((k) => k !== 'url')];
    saveColumns(userId ?? null, chosen);
    setSearch({ cols: chosen });
  };
  const sortBy = (key: string) =>
    setSearch({ sort: key, dir: key === sort.field && sort.direction === 'ASC' ? 'DESC' : 'ASC' });

  if (!data && (fetching || userId === undefined)) return <Loading label="Loading pages…" />;
  if (!data && !error?.graphQLErrors.some((e) => e.extensions.code === 'BAD_USER_INPUT'))
    return <AuditLoadError projectId={projectId} error={error} />;

  // A refused view (a bad filter value) shows the reason, not the previous rows.
  const table = fresh || fetching ? data?.audit.urlTable : undefined;
  const first = pages.firstRow;
  const last = first + (table?.rows.length ?? 0) - 1;
  const sortLabel = table?.columns.find((c) => c.key === sort.field)?.label ?? sort.field;

  return (
    <section className="page" aria-labelledby="audit-title">
      {data && <AuditHeading projectId={projectId} projectName={data.project.name} audit={data.audit} view="pages" />}

      <PagesQuickFilters search={search} setSearch={setSearch} />
      {fields.data && (
        <div className="url-table-tools">
          <ColumnChooser
            fields={fields.data.urlTableFields}
            columns={columns}
            defaults={DEFAULT_COLUMNS}
            onChange={chooseColumns}
          />
          <FilterBuilder
            key={JSON.stringify(search.f ?? null)}
            fields={fields.data.urlTableFields}
            filter={search.f}
            onApply={(f) => setSearch({ f })}
          />
        </div>
      )}

      <div className="list-toolbar">
        <p className="muted" role="status" aria-live="polite">
          {!table
            ? ''
            : table.totalCount === 0
              ? 'No URLs match.'
              : `URLs ${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(table.totalCount)}`}
          {fetching && ' · updating…'}
        </p>
        {data && data.audit.pagesCrawled > 0 && <ExportAsShown view={{ projectId, auditId, columns, sort, filter }} />}
      </div>
      <ErrorMessage problem={problemOf(error)} title="This view cannot be shown" />

      {table && table.totalCount === 0 ? (
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
        table && (
          <DataTable
            label="Crawled pages"
            caption={`Crawled pages, sorted by ${sortLabel} ${sort.direction === 'ASC' ? 'ascending' : 'descending'}`}
            className="table table-pages"
            columns={tableColumns(table.columns, { projectId, auditId })}
            rows={table.rows}
            rowKey={(r) => r.id}
            sort={{ key: sort.field, direction: sort.direction, onSort: sortBy }}
          />
        )
      )}

      <Pager
        label="Pages of results"
        hasPrevious={pages.hasPrevious}
        hasNext={table?.pageInfo.hasNextPage ?? false}
        busy={fetching}
        onPrevious={pages.previous}
        onNext={() => pages.next(table?.pageInfo.endCursor)}
      />
    </section>
  );
}
