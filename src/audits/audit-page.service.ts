import type { Principal } from '../platform/context.js';
import { badInput, notFound } from '../platform/errors.js';
import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import { assertApiAccess } from '../identity/index.js';

export const MAX_PAGES_PER_REQUEST = 100;
export const MAX_PAGE_SEARCH_LENGTH = 200;

export type AuditPageOrder = 'URL' | 'STATUS' | 'TITLE' | 'DEPTH' | 'WORD_COUNT' | 'RESPONSE_TIME' | 'ISSUES';
export type SortDirection = 'ASC' | 'DESC';
export type StatusClass = 'SUCCESS' | 'REDIRECT' | 'CLIENT_ERROR' | 'SERVER_ERROR' | 'FAILED';

export interface AuditPageFilter {
  statusClass?: readonly StatusClass[] | null;
  hasIssues?: boolean | null;
  search?: string | null;
}

export interface AuditPageQuery {
  first: number;
  after?: string | null;
  orderBy: AuditPageOrder;
  direction: SortDirection;
  filter?: AuditPageFilter | null;
}

export interface AuditPageRecord {
  id: string;
  url: string;
  finalUrl: string | null;
  statusCode: number | null;
  depth: number;
  title: string | null;
  metaDescription: string | null;
  wordCount: number;
  responseTimeMs: number | null;
  bytes: number;
  indexable: boolean;
  inlinks: number;
  outlinks: number;
  error: string | null;
  issueCount: number;
}

export interface AuditPageList {
  rows: AuditPageRecord[];
  hasNext: boolean;
  endCursor: string | null;
  totalCount: number;
}

interface SortKey {
  /** The column in the page rows (`p`), or the issue count computed beside them. */
  column: string;
  /** The row property that carries the value into the cursor. */
  field: keyof AuditPageRecord;
  kind: 'text' | 'int';
  nullable: boolean;
}

const SORT_KEYS: Record<AuditPageOrder, SortKey> = {
  URL: { column: 'p.url', field: 'url', kind: 'text', nullable: false },
  STATUS: { column: 'p.status_code', field: 'statusCode', kind: 'int', nullable: true },
  TITLE: { column: 'p.title', field: 'title', kind: 'text', nullable: true },
  DEPTH: { column: 'p.depth', field: 'depth', kind: 'int', nullable: false },
  WORD_COUNT: { column: 'p.word_count', field: 'wordCount', kind: 'int', nullable: false },
  RESPONSE_TIME: { column: 'p.response_time_ms', field: 'responseTimeMs', kind: 'int', nullable: true },
  ISSUES: { column: 'p.issue_count', field: 'issueCount', kind: 'int', nullable: false },
};

const STATUS_CLASS_SQL: Record<StatusClass, string> = {
  SUCCESS: 'p.status_code BETWEEN 200 AND 299',
  REDIRECT: 'p.status_code BETWEEN 300 AND 399',
  CLIENT_ERROR: 'p.status_code BETWEEN 400 AND 499',
  SERVER_ERROR: 'p.status_code BETWEEN 500 AND 599',
  FAILED: 'p.status_code IS NULL',
};

/** Pages with their issue counts, for sorting or filtering on them: one grouped pass over the audit's occurrences. */
const COUNTED_PAGES = `(SELECT ap.*, COALESCE(c.n, 0) AS issue_count FROM audit_page ap
  LEFT JOIN (SELECT url, count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1 GROUP BY url) c ON c.url = ap.url
  WHERE ap.audit_id = $1) p`;
/** Otherwise only the returned page of rows is counted, by index lookups on (audit_id, url). */
const ISSUE_COUNT_OF_ROW = '(SELECT count(*) FROM issue_occurrence o WHERE o.audit_id = $1 AND o.url = p.url)::int';

const COLUMNS = `p.id::text AS id, p.url, p.final_url AS "finalUrl", p.status_code AS "statusCode", p.depth, p.title,
  p.meta_description AS "metaDescription", p.word_count AS "wordCount", p.response_time_ms AS "responseTimeMs", p.bytes,
  p.indexable, p.inlinks, p.outlinks, p.error`;

const OWNED = `EXISTS (SELECT 1 FROM audit a JOIN project pr ON pr.id = a.project_id WHERE a.id = $1 AND pr.organization_id = $2)`;

const INT32_MAX = 2_147_483_647;
const ROW_ID = /^[1-9][0-9]{0,17}$/;

/** A position in one listing: the sort value and the row id of the last row, tied to the audit and the ordering. */
type Cursor = [auditId: string, order: AuditPageOrder, direction: SortDirection, value: string | number | null, id: string];

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(after: string, auditId: string, orderBy: AuditPageOrder, direction: SortDirection): { value: string | number | null; id: string } {
  const invalid = () => badInput('after is not a cursor of this list: pass pageInfo.endCursor of a previous page.', [{ path: 'after', message: 'not a cursor of this list' }]);
  if (!/^[A-Za-z0-9_-]+$/.test(after)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) throw invalid();
  const [audit, order, dir, value, id] = parsed as unknown[];
  if (typeof id !== 'string' || !ROW_ID.test(id)) throw invalid();
  if (audit !== auditId || order !== orderBy || dir !== direction) {
    throw badInput('after belongs to another list (another audit, orderBy or direction): start again without it.', [{ path: 'after', message: 'cursor of another list' }]);
  }
  const key = SORT_KEYS[orderBy];
  const fits =
    value === null ? key.nullable : key.kind === 'int' ? Number.isSafeInteger(value) && Math.abs(value as number) <= INT32_MAX : typeof value === 'string';
  if (!fits) throw invalid();
  return { value: value as string | number | null, id };
}

/** LIKE's wildcards and its escape character, taken literally. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The pages explorer: an audit's crawled pages, sorted on one key (ties by id, missing values last in both
 * directions), filtered, in keyset pages with opaque cursors. The audit is checked against the caller's
 * organization here too, so the rows are never reachable through an unchecked Audit.
 */
export class AuditPageService {
  async list(db: NativeDb, principal: Principal | null, auditId: string, query: AuditPageQuery): Promise<AuditPageList> {
    const p = assertApiAccess(principal, 'read');
    const { first, after, orderBy, direction, filter } = query;
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGES_PER_REQUEST) {
      throw badInput(`first must be between 1 and ${MAX_PAGES_PER_REQUEST}.`, [{ path: 'first', message: `must be 1-${MAX_PAGES_PER_REQUEST}` }]);
    }
    const search = filter?.search ?? '';
    if (search.length > MAX_PAGE_SEARCH_LENGTH) {
      throw badInput(`filter.search must be at most ${MAX_PAGE_SEARCH_LENGTH} characters.`, [{ path: 'filter.search', message: `at most ${MAX_PAGE_SEARCH_LENGTH} characters` }]);
    }
    const cursor = after ? decodeCursor(after, auditId, orderBy, direction) : null;
    const key = SORT_KEYS[orderBy];

    // $1 the audit, $2 the organization; filters and the keyset add theirs.
    const params: unknown[] = [auditId, p.organizationId];
    const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
    const conditions: string[] = ['p.audit_id = $1'];
    const classes = [...new Set(filter?.statusClass ?? [])];
    if (classes.length) conditions.push(`(${classes.map((c) => STATUS_CLASS_SQL[c]).join(' OR ')})`);
    if (filter?.hasIssues != null) conditions.push(filter.hasIssues ? 'p.issue_count > 0' : 'p.issue_count = 0');
    const term = search.trim();
    if (term) {
      const pattern = param(`%${escapeLike(term)}%`, 'text');
      conditions.push(`(p.url ILIKE ${pattern} ESCAPE '\\' OR p.title ILIKE ${pattern} ESCAPE '\\')`);
    }
    const counted = orderBy === 'ISSUES' || filter?.hasIssues != null;
    const from = counted ? COUNTED_PAGES : 'audit_page p';
    const filtered = conditions.join(' AND ');

    const keyset: string[] = [];
    if (cursor) {
      const cmp = direction === 'ASC' ? '>' : '<';
      const id = param(cursor.id, 'bigint');
      if (cursor.value === null) keyset.push(`${key.column} IS NULL AND p.id ${cmp} ${id}`);
      else {
        const beyond = `(${key.column}, p.id) ${cmp} (${param(cursor.value, key.kind)}, ${id})`;
        keyset.push(key.nullable ? `(${key.column} IS NULL OR ${beyond})` : beyond);
      }
    }
    const order = `${key.column} ${direction} NULLS LAST, p.id ${direction}`;
    const rowsSql = `SELECT ${COLUMNS}, ${counted ? 'p.issue_count::int' : ISSUE_COUNT_OF_ROW} AS "issueCount" FROM ${from}
      WHERE ${[filtered, ...keyset].join(' AND ')} AND ${OWNED} ORDER BY ${order} LIMIT ${first + 1}`;
    // The count takes the filter's parameters only: $1 .. the search pattern, never the cursor's.
    const countParams = params.slice(0, term ? 3 : 2);
    const countSql = `SELECT ${OWNED} AS owned, (SELECT count(*) FROM ${from} WHERE ${filtered})::int AS total`;

    const [rows, [count]] = await Promise.all([
      nativeQuery<AuditPageRecord>(db, rowsSql, params),
      nativeQuery<{ owned: boolean; total: number }>(db, countSql, countParams),
    ]);
    if (!count.owned) throw notFound('Audit');
    const page = rows.slice(0, first);
    const last = page.at(-1);
    return {
      rows: page,
      hasNext: rows.length > first,
      endCursor: last ? encodeCursor([auditId, orderBy, direction, last[key.field] as string | number | null, last.id]) : null,
      totalCount: count.total,
    };
  }
}
