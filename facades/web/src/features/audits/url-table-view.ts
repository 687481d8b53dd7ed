import type { AuditPageKind, StatusClass, UrlTableFilterInput } from '../../gql/graphql';

/** One row of the filter builder: a field, an operator, a value (and the upper bound of "between"). */
export interface FilterRow {
  field: string;
  operator: string;
  value: string;
  valueTo: string;
}

/** The builder's rows and how they combine. */
export interface BuiltFilter {
  combinator: 'AND' | 'OR';
  rows: FilterRow[];
}

/** The columns shown when neither the URL nor the user's saved choice names any. */
export const DEFAULT_COLUMNS = ['url', 'status', 'title', 'depth', 'words', 'response_time', 'issues'];
/** An issue's table: the page facts that say which URL to fix first, before the issue's evidence columns. */
export const ISSUE_DEFAULT_COLUMNS = ['url', 'title', 'words', 'inlinks', 'ranking_keywords', 'best_position'];
const MAX_ROWS = 20;

export const OPERATOR_LABEL: Record<string, string> = {
  eq: 'is',
  neq: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  regex: 'matches regex',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  between: 'between',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
};
export const VALUELESS = new Set(['is_empty', 'is_not_empty']);

const str = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '');

/**
 * The builder's filter from the URL's `f` (the router keeps it as JSON: { combinator, rows: [{ field, operator,
 * value, valueTo }] }); malformed parts are dropped (the server refuses what remains wrong, and says why).
 */
export function parseBuiltFilter(input: unknown): BuiltFilter | undefined {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const parsed = value as { combinator?: unknown; rows?: unknown } | null;
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray(parsed.rows)) return undefined;
  const rows = (parsed.rows as unknown[])
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
    .slice(0, MAX_ROWS)
    .map((r) => ({
      field: str(r.field, 100),
      operator: str(r.operator, 20),
      value: str(r.value, 500),
      valueTo: str(r.valueTo, 500),
    }))
    .filter((r) => r.field && r.operator);
  return rows.length ? { combinator: parsed.combinator === 'OR' ? 'OR' : 'AND', rows } : undefined;
}

/** The filters of the explorer's view (its URL's search). */
interface ViewFilters {
  status?: StatusClass[];
  kind?: AuditPageKind[];
  issues?: boolean;
  q?: string;
  f?: BuiltFilter;
}

const anyOf = (field: string, values: readonly string[]) => ({
  combinator: 'OR',
  conditions: values.map((value) => ({ field, operator: 'eq', value })),
});

/**
 * The view's filter for the URL table: the quick filters (status class, kind, with issues, search) each a group, and
 * the builder's rows one group of their own, joined by AND.
 */
export function tableFilter(search: ViewFilters): UrlTableFilterInput | null {
  const groups: UrlTableFilterInput['groups'] = [];
  if (search.status?.length) groups.push(anyOf('status_class', search.status satisfies StatusClass[]));
  if (search.kind?.length) groups.push(anyOf('kind', search.kind satisfies AuditPageKind[]));
  if (search.issues) groups.push({ combinator: 'AND', conditions: [{ field: 'issues', operator: 'gt', value: '0' }] });
  if (search.q)
    groups.push({
      combinator: 'OR',
      conditions: [
        { field: 'url', operator: 'contains', value: search.q },
        { field: 'title', operator: 'contains', value: search.q },
      ],
    });
  const built = search.f;
  if (built?.rows.length)
    groups.push({
      combinator: built.combinator,
      conditions: built.rows.map((r) => ({
        field: r.field,
        operator: r.operator,
        value: VALUELESS.has(r.operator) ? null : r.value,
        valueTo: r.operator === 'between' ? r.valueTo : null,
      })),
    });
  return groups.length ? { combinator: 'AND', groups } : null;
}

/** A column key: a field (`title`) or a custom extractor's (`extract.price`, `search.has_gtag`). */
const COLUMN_KEY = /^[a-z0-9_]{1,60}(?:\.[a-z0-9_]{1,40})?$/;

/** The columns from the URL's `cols` (comma-separated keys). */
export function parseColumns(value: unknown): string[] | undefined {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const keys = [...new Set(items.filter((k): k is string => typeof k === 'string' && COLUMN_KEY.test(k)))].slice(0, 80);
  return keys.length ? keys : undefined;
}

/** The kinds of URL table whose column choice is kept apart: the pages explorer's and an issue's. */
export type ColumnsStore = 'pages' | 'issue';

/** Where the user's chosen columns of a kind of table are kept in this browser. */
export const columnsStorageKey = (userId: string, store: ColumnsStore) =>
  store === 'pages' ? `url-table-columns:${userId}` : `url-table-columns:${store}:${userId}`;

export function savedColumns(userId: string | null, store: ColumnsStore): string[] | undefined {
  if (!userId) return undefined;
  try {
    return parseColumns(window.localStorage.getItem(columnsStorageKey(userId, store)) ?? '');
  } catch {
    return undefined;
  }
}

export function saveColumns(userId: string | null, columns: readonly string[], store: ColumnsStore): void {
  if (!userId) return;
  try {
    window.localStorage.setItem(columnsStorageKey(userId, store), columns.join(','));
  } catch {
    // Storage refused (private mode, quota): the choice still holds in the URL.
  }
}

/** The builder's rows as a filter of one group (a segment's saved filter). */
export function builtFilterInput(built: BuiltFilter): UrlTableFilterInput {
  return {
    combinator: 'AND',
    groups: [
      {
        combinator: built.combinator,
        conditions: built.rows.map((r) => ({
          field: r.field,
          operator: r.operator,
          value: VALUELESS.has(r.operator) ? null : r.value,
          valueTo: r.operator === 'between' ? r.valueTo : null,
        })),
      },
    ],
  };
}

/**
 * A saved filter (a segment's, as the API returns it) as the builder's rows: the conditions of its groups, joined by
 * the first group's combinator (the builder edits one group; filters saved here have one).
 */
export function builtFilterOf(filter: unknown): BuiltFilter | undefined {
  const f = filter as { groups?: { combinator?: string; conditions?: Record<string, unknown>[] }[] } | null;
  if (!f || !Array.isArray(f.groups)) return undefined;
  return parseBuiltFilter({
    combinator: f.groups[0]?.combinator,
    rows: f.groups.flatMap((g) => g.conditions ?? []),
  });
}
