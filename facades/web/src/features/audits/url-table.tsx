import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { useDocumentTitle } from '../../components/document-title';
import { DataTable, Pager, useCursorPages, type Column } from '../../components/data-table';
import { EmptyState, ErrorMessage, Loading } from '../../components/status';
import {
  AuditUrlTableDocument,
  UrlTableFieldsDocument,
  type AuditUrlTableQuery,
  type UrlTableFilterInput,
  type UrlTableSortInput,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';
import { currentSession } from '../../lib/session';
import { useLivePoll } from '../../lib/use-live-poll';
import { urlRangeText } from './url-range';
import { PageLink } from '../../components/page-link';
import { AuditLoadError } from './audit-heading';
import { ColumnChooser, FilterBuilder } from './url-table-controls';
import { ExportAsShown } from './url-table-export';
import { saveColumns, savedColumns, type BuiltFilter, type ColumnsStore } from './url-table-view';

const PAGE_SIZE = 50;
/** How long the list of a just-cancelled audit is read again while its worker saves the last pages. */
const SETTLE_WAIT_MS = 30_000;

export type UrlTableData = AuditUrlTableQuery;
type Table = AuditUrlTableQuery['audit']['urlTable'];
export type UrlTableRow = Table['rows'][number];
type TableColumn = Table['columns'][number];

/** The view a URL table shows, as its page's URL keeps it. */
export interface UrlTableSearch {
  cols?: string[];
  sort?: string;
  dir?: 'ASC' | 'DESC';
  f?: BuiltFilter;
}

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
  return columns.map((c, i): Column<UrlTableRow> => ({
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

/** The column chooser and the filter builder, over the URL table's fields. */
function UrlTableTools({
  auditId,
  columns,
  defaults,
  filter,
  onColumns,
  onFilter,
}: {
  /** The audit: its custom extractors' columns are offered too. */
  auditId: string;
  columns: readonly string[];
  defaults: readonly string[];
  filter: BuiltFilter | undefined;
  onColumns: (columns: string[]) => void;
  onFilter: (filter: BuiltFilter | undefined) => void;
}) {
  const [fields] = useQuery({ query: UrlTableFieldsDocument, variables: { auditId } });
  if (!fields.data) return null;
  return (
    <div className="url-table-tools">
      <ColumnChooser fields={fields.data.urlTableFields} columns={columns} defaults={defaults} onChange={onColumns} />
      <FilterBuilder
        key={JSON.stringify(filter ?? null)}
        fields={fields.data.urlTableFields}
        filter={filter}
        onApply={onFilter}
      />
    </div>
  );
}

/**
 * The URL table of an audit (the pages explorer) or of one check's URLs (an issue's, with its evidence as columns):
 * column chooser, filter builder, sortable headers, keyset pages and "Export as shown". The page keeps the view in its
 * URL (`search`, changed through `setSearch`); `filter` is the view's whole filter (quick filters included).
 */
export function UrlTableSection({
  projectId,
  auditId,
  checkCode = null,
  segment = null,
  search,
  setSearch,
  filter,
  defaults,
  storage,
  label,
  heading,
  quickFilters,
  tableClassName,
  extraColumns = [],
  emptyText,
  documentTitle,
}: {
  projectId: string;
  auditId: string;
  checkCode?: string | null;
  /** A segment of the project: only its URLs. */
  segment?: string | null;
  search: UrlTableSearch;
  setSearch: (patch: Partial<UrlTableSearch>) => void;
  filter: UrlTableFilterInput | null;
  defaults: readonly string[];
  /** Where the user's column choice is kept (one per kind of table). */
  storage: ColumnsStore;
  /** The table's name ("Crawled pages", "Affected URLs"). */
  label: string;
  heading: (data: AuditUrlTableQuery) => ReactNode;
  quickFilters?: ReactNode;
  /** Columns after the data (row actions). */
  extraColumns?: Column<UrlTableRow>[];
  /** A class of the table besides `table table-pages` (an issue's table: `table-issue`). */
  tableClassName?: string;
  emptyText: { title: string; filtered: string; none: string };
  /** The browser tab's title: `${prefix} · project` once known, `fallback` before. */
  documentTitle: { prefix: string; fallback: string };
}) {
  const userId = useUserId();
  const chosen = search.cols ?? savedColumns(userId ?? null, storage) ?? defaults;
  const columns = ['url', ...chosen.filter((k) => k !== 'url')];
  // An issue's URLs come ranking pages first until a column is sorted on; every other table sorts by URL.
  const sort: UrlTableSortInput | null =
    search.sort || !checkCode ? { field: search.sort ?? 'url', direction: search.dir ?? 'ASC' } : null;
  const pages = useCursorPages(PAGE_SIZE);
  // A new view (columns, sort, filter, quick filters) starts again at its first page of results.
  const viewKey = JSON.stringify([columns, sort, filter, checkCode, segment]);
  const [shownView, setShownView] = useState(viewKey);
  if (shownView !== viewKey) {
    setShownView(viewKey);
    pages.reset();
  }
  const [{ data: fresh, fetching, error }, refetch] = useQuery({
    query: AuditUrlTableDocument,
    variables: { projectId, auditId, first: PAGE_SIZE, after: pages.after, columns, sort, filter, checkCode, segment },
    // The user's saved columns are known first, so that the table is asked for once.
    pause: userId === undefined,
  });
  // While a new view loads, the last one stays on screen (the controls keep their state and focus).
  const previous = useRef<AuditUrlTableQuery | undefined>(undefined);
  if (fresh) previous.current = fresh;
  const data = fresh ?? previous.current;
  // A cancelled audit's worker writes the pages it crawled a moment after the cancel: until the stored pages reach
  // the count the audit reports, the list is read again (from every second, backing off, for up to half a minute).
  const filtered = filter !== null || segment !== null;
  const settling =
    !!data &&
    !filtered &&
    !checkCode &&
    data.audit.status === 'CANCELLED' &&
    data.audit.urlTable.totalCount < data.audit.pagesCrawled;
  useLivePoll(() => refetch({ requestPolicy: 'network-only' }), {
    active: settling,
    firstMs: 1_000,
    maxMs: 4_000,
    stopAfterMs: SETTLE_WAIT_MS,
  });

  useDocumentTitle(data ? `${documentTitle.prefix} · ${data.project.name}` : documentTitle.fallback);

  const change = setSearch;
  const chooseColumns = (next: string[]) => {
    const chosen = ['url', ...next.filter((k) => k !== 'url')];
    saveColumns(userId ?? null, chosen, storage);
    change({ cols: chosen });
  };
  const sortBy = (key: string) =>
    change({ sort: key, dir: key === sort?.field && sort.direction === 'ASC' ? 'DESC' : 'ASC' });

  if (!data && (fetching || userId === undefined)) return <Loading label={`Loading ${label.toLowerCase()}…`} />;
  if (!data && !error?.graphQLErrors.some((e) => e.extensions.code === 'BAD_USER_INPUT'))
    return <AuditLoadError projectId={projectId} error={error} />;

  // A refused view (a bad filter value) shows the reason, not the previous rows.
  const table = fresh || fetching ? data?.audit.urlTable : undefined;
  const order = sort
    ? `sorted by ${table?.columns.find((c) => c.key === sort.field)?.label ?? sort.field} ${
        sort.direction === 'ASC' ? 'ascending' : 'descending'
      }`
    : 'ranking pages first';

  return (
    <>
      {data && heading(data)}
      {quickFilters}
      <UrlTableTools
        auditId={auditId}
        columns={columns}
        defaults={defaults}
        filter={search.f}
        onColumns={chooseColumns}
        onFilter={(f) => change({ f })}
      />

      <div className="list-toolbar">
        <p className="muted" role="status" aria-live="polite">
          {!table
            ? ''
            : table.totalCount === 0
              ? 'No URLs match.'
              : urlRangeText(table.rows, pages.firstRow, table.totalCount) + (sort ? '' : ' · ranking pages first')}
          {fetching && ' · updating…'}
        </p>
        {data && data.audit.pagesCrawled > 0 && (
          <ExportAsShown view={{ projectId, auditId, columns, sort, filter, checkCode, segment }} />
        )}
      </div>
      <ErrorMessage problem={problemOf(error)} title="This view cannot be shown" />

      {table && table.totalCount === 0 ? (
        <EmptyState title={emptyText.title}>
          <p>
            {filtered
              ? emptyText.filtered
              : settling
                ? 'The pages crawled before the cancel are being saved…'
                : emptyText.none}
          </p>
        </EmptyState>
      ) : (
        table && (
          <DataTable
            label={label}
            caption={`${label}, ${order}`}
            className={tableClassName ? `table table-pages ${tableClassName}` : 'table table-pages'}
            columns={[...tableColumns(table.columns, { projectId, auditId }), ...extraColumns]}
            rows={table.rows}
            rowKey={(r) => r.id}
            sort={{ key: sort?.field ?? '', direction: sort?.direction ?? 'ASC', onSort: sortBy }}
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
    </>
  );
}
