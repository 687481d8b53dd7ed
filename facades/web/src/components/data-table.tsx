import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { Loading } from './status';
import { TableWrap } from './table-wrap';

export type SortDirection = 'ASC' | 'DESC';

/** One column: its header, how a row's cell is drawn, and the key the list is sorted by when it can be. */
export interface Column<Row, SortKey extends string = string> {
  /** React's key for the column. */
  id: string;
  header: ReactNode;
  cell: (row: Row, index: number) => ReactNode;
  /** The sort key this column's header sorts by (a sort button in the header); none: not sortable. */
  sortKey?: SortKey;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** Class of the column's body cells (and of its header with `headerClassName` unset). */
  className?: string;
  headerClassName?: string;
  /** The cell that names its row: a `<th scope="row">`. */
  rowHeader?: boolean;
}

/** A controlled sort: the page keeps it (often in the URL) and sorts or refetches on `onSort`. */
export interface TableSort<SortKey extends string> {
  key: SortKey;
  direction: SortDirection;
  onSort: (key: SortKey) => void;
}

/** "Load more …" under the table: the next page of a GraphQL connection, added below the rows shown. */
export interface LoadMore {
  hasMore: boolean;
  onMore: () => void;
  label: ReactNode;
  busy?: boolean;
}

const ARIA_SORT = { ASC: 'ascending', DESC: 'descending' } as const;

/**
 * The app's list table: a `<table>` named by a caption (`caption`, hidden unless `captionVisible`) or by `label`, in
 * a focusable scroll box (at 375 px a wide table scrolls inside it, never the page); sortable headers are buttons
 * (keyboard-usable) with `aria-sort`. While `rows` is null and `loading`, a loading line; with no rows, `empty`.
 */
export function DataTable<Row, SortKey extends string = string>({
  columns,
  rows,
  rowKey,
  label,
  caption,
  captionVisible = false,
  className = 'table',
  wrapClassName,
  sort,
  loading = false,
  loadingLabel = 'Loading…',
  empty,
  more,
  rowClassName,
  head,
}: {
  columns: readonly Column<Row, SortKey>[];
  rows: readonly Row[] | null | undefined;
  rowKey: (row: Row, index: number) => string;
  /** The scroll box's name (and the table's, without a caption). */
  label: string;
  caption?: ReactNode;
  captionVisible?: boolean;
  className?: string;
  wrapClassName?: string;
  sort?: TableSort<SortKey>;
  loading?: boolean;
  loadingLabel?: string;
  empty?: ReactNode;
  more?: LoadMore;
  rowClassName?: (row: Row) => string | undefined;
  /** A header row of its own (grouped headers); replaces the one made from the columns. */
  head?: ReactNode;
}) {
  if (!rows) return loading ? <Loading label={loadingLabel} /> : null;
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <>
      <TableWrap label={label} className={wrapClassName}>
        <table className={className} aria-label={caption ? undefined : label}>
          {caption && <caption className={captionVisible ? undefined : 'visually-hidden'}>{caption}</caption>}
          <thead>{head ?? <HeaderRow columns={columns} sort={sort} />}</thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={rowKey(row, index)} className={rowClassName?.(row)}>
                {columns.map((c) =>
                  c.rowHeader ? (
                    <th key={c.id} scope="row" className={cellClass(c)}>
                      {c.cell(row, index)}
                    </th>
                  ) : (
                    <td key={c.id} className={cellClass(c)}>
                      {c.cell(row, index)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {more?.hasMore && (
        <p>
          <Button onPress={more.onMore} isDisabled={more.busy}>
            {more.label}
          </Button>
        </p>
      )}
    </>
  );
}

function cellClass(c: { numeric?: boolean; className?: string }): string | undefined {
  return [c.numeric ? 'numeric' : '', c.className ?? ''].filter(Boolean).join(' ') || undefined;
}

function HeaderRow<Row, SortKey extends string>({
  columns,
  sort,
}: {
  columns: readonly Column<Row, SortKey>[];
  sort?: TableSort<SortKey>;
}) {
  return (
    <tr>
      {columns.map((c) => {
        const sorted = sort && c.sortKey !== undefined && c.sortKey === sort.key ? sort.direction : null;
        const className = cellClass({ numeric: c.numeric, className: c.headerClassName });
        if (!sort || c.sortKey === undefined) {
          return (
            <th key={c.id} scope="col" className={className}>
              {c.header}
            </th>
          );
        }
        const key = c.sortKey;
        return (
          <th key={c.id} scope="col" aria-sort={sorted ? ARIA_SORT[sorted] : 'none'} className={className}>
            <button type="button" className="sort-button" onClick={() => sort.onSort(key)}>
              {c.header}
              <span aria-hidden="true" className="sort-mark">
                {sorted === 'ASC' ? '▲' : sorted === 'DESC' ? '▼' : '↕'}
              </span>
            </button>
          </th>
        );
      })}
    </tr>
  );
}

/**
 * Keyset paging through a GraphQL connection, a page at a time ("Previous" / "Next"): the cursors of the pages before
 * the current one; `after` is the current page's cursor. `reset` goes back to the first page (a new filter or sort).
 */
export function useCursorPages(pageSize: number) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    after: cursors[cursors.length - 1] ?? null,
    /** The 1-based position of the current page's first row. */
    firstRow: (cursors.length - 1) * pageSize + 1,
    hasPrevious: cursors.length > 1,
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: (endCursor: string | null | undefined) => setCursors((c) => [...c, endCursor ?? null]),
    reset: () => setCursors([null]),
  };
}

/** "Previous" and "Next" under a table paged with `useCursorPages`. */
export function Pager({
  label,
  hasPrevious,
  hasNext,
  busy,
  onPrevious,
  onNext,
}: {
  label: string;
  hasPrevious: boolean;
  hasNext: boolean;
  busy?: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav className="pager" aria-label={label}>
      <Button onPress={onPrevious} isDisabled={!hasPrevious || busy}>
        Previous
      </Button>
      <Button onPress={onNext} isDisabled={!hasNext || busy}>
        Next
      </Button>
    </nav>
  );
}
