import { badInput } from '../platform/errors.js';
import { SHOWN_WORSE_CODES } from '../seo/checks/index.js';
import {
  boundedQuery,
  nativeQuery,
  nativeTransaction,
  type BoundedRun,
  type NativeDb,
} from '../platform/db/native-query.js';
import type { AuditLinkPosition } from './audit-page-rows.js';
import type { EvidenceKeyShape } from './evidence-shape.js';
import { INLINKS_DESCRIPTION, inlinksOfSql, STORED_INLINKS } from './inlinks.js';
import type { RankedUrls } from './ranked-urls.js';

/*
 * The URL table: one query over an audit's URLs with columns chosen from a registry, a filter of groups of
 * conditions, a sort on any column and keyset pages. The registry below is the one list of the table's fields, each
 * with the SQL expression it reads (over `p`, the audit_page row, and `o`, the issue occurrence when the table is
 * scoped to one check). Values of the caller only ever reach the SQL as parameters.
 */

export type UrlFieldType = 'text' | 'number' | 'bool' | 'enum';
export type UrlOperator =
  | 'eq'
  | 'neq'
  | 'contains'
  | 'not_contains'
  | 'regex'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'between'
  | 'is_empty'
  | 'is_not_empty';

/** The PostgreSQL type of a field's value (its cursor parameter is cast to it). */
type PgType = 'text' | 'int' | 'float8' | 'boolean';

/** A column of the table as a client reads it. */
export interface UrlColumn {
  key: string;
  label: string;
  type: UrlFieldType;
  description: string;
  sortable: boolean;
  filterable: boolean;
  /** An enum's values. */
  options?: readonly string[];
  /** The filter operators it takes, when not those of its type. */
  operators?: readonly UrlOperator[];
}

export interface UrlField extends UrlColumn {
  /** Its value for one row. */
  sql: string;
  pgType: PgType;
  /** Reads the project's ranking keywords (the `rk` relation joined on the URL). */
  ranking?: boolean;
  /**
   * Its value stored with a completed audit's pages (storePageCounts), where `sql` counts it live per row: read
   * instead once the audit is COMPLETED (auditFieldsByKey), so that sorting 100,000 rows reads a column.
   */
  stored?: string;
  /**
   * Its SQL is a NOT NULL column (as the completed form of a stored field is): sorted without NULLS LAST, so that
   * an index on (audit_id, column, id) serves both directions, and paged by a plain row comparison.
   */
  notNull?: boolean;
  /** Its SQL when it needs parameters of its own (the segment names: each segment's rule); `sql` otherwise. */
  sqlOf?: (param: (value: unknown, type: string) => string) => string;
}

/** A field's SQL expression, its parameters pushed with `param`. */
const fieldSql = (f: UrlField, param: (value: unknown, type: string) => string): string =>
  f.sqlOf ? f.sqlOf(param) : f.sql;

const OCCURRENCES_OF_ROW = 'FROM issue_occurrence o2 WHERE o2.audit_id = $1 AND o2.url = p.url';
const labVital = (column: string) =>
  `(SELECT s.${column} FROM technical_snapshot s WHERE s.audit_id = $1 AND s.url = p.url AND s.source = 'LAB'
    AND s.${column} IS NOT NULL ORDER BY s.measured_at DESC LIMIT 1)`;
const detailText = (key: string) => `(p.details->>'${key}')`;
const detailList = (key: string) =>
  `(SELECT string_agg(v, ', ') FROM jsonb_array_elements_text(COALESCE(p.details->'${key}', '[]'::jsonb)) v)`;
const detailCount = (key: string) => `COALESCE(jsonb_array_length(p.details->'${key}'), 0)`;

/**
 * When the project's completed audits crawled the URL (url_history, merged by each completion) and the audit read
 * itself (a running one is not merged yet), as ISO text (which sorts as the time does): one probe of the history's
 * key per row, the project and the audit's start read once (uncorrelated subqueries run once per statement).
 */
const seen = (column: 'first_seen' | 'last_seen') =>
  `(CASE WHEN p.url IS NOT NULL THEN to_char(${column === 'first_seen' ? 'least' : 'greatest'}(
    (SELECT h.${column} FROM url_history h WHERE h.project_id = (SELECT a3.project_id FROM audit a3 WHERE a3.id = $1)
      AND h.url = p.url),
    (SELECT a4.created_at FROM audit a4 WHERE a4.id = $1)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END)`;

type FieldSpec = Omit<UrlField, 'sortable' | 'filterable'> & { sortable?: boolean; filterable?: boolean };
const field = (spec: FieldSpec): UrlField => ({ sortable: true, filterable: true, ...spec });
const text = (key: string, label: string, sql: string, description: string) =>
  field({ key, label, type: 'text', sql, pgType: 'text', description });
const int = (key: string, label: string, sql: string, description: string) =>
  field({ key, label, type: 'number', sql, pgType: 'int', description });
const float = (key: string, label: string, sql: string, description: string) =>
  field({ key, label, type: 'number', sql, pgType: 'float8', description });
const bool = (key: string, label: string, sql: string, description: string) =>
  field({ key, label, type: 'bool', sql, pgType: 'boolean', description });
const enumeration = (key: string, label: string, sql: string, options: readonly string[], description: string) =>
  field({ key, label, type: 'enum', sql, pgType: 'text', options, description });
const notNull = (f: UrlField): UrlField => ({ ...f, notNull: true });
const storedInt = (key: string, label: string, sql: string, stored: string, description: string) =>
  field({ key, label, type: 'number', sql, pgType: 'int', stored, description });

/** Occurrences on the row's URL of checks of one severity. */
const bySeverity = (severity: string, key: string, label: string, description: string) =>
  storedInt(
    key,
    label,
    `(SELECT count(*) FROM issue_occurrence o2 JOIN audit_issue i ON i.audit_id = o2.audit_id AND i.code = o2.code
      WHERE o2.audit_id = $1 AND o2.url = p.url AND i.severity = '${severity}')::int`,
    `p.${key}`,
    description,
  );

/** The row's inlinks from one position (inlinks.ts: the definition every surface shares). */
const inlinksAt = (position: AuditLinkPosition, label: string, description: string) =>
  storedInt(
    STORED_INLINKS[position],
    label,
    inlinksOfSql('p.url', `'${position}'`),
    `p.${STORED_INLINKS[position]}`,
    description,
  );

export const URL_KINDS = ['HTML', 'REDIRECT', 'ERROR', 'FILE', 'FAILED'] as const;
export const STATUS_CLASSES = ['SUCCESS', 'REDIRECT', 'CLIENT_ERROR', 'SERVER_ERROR', 'FAILED'] as const;
const NON_INDEXABLE_REASONS = [
  'noindex',
  'canonicalized',
  'canonical-other-host',
  'redirect',
  'error-status',
  'not-html',
  'no-response',
] as const;

/** The URL table's fields, in the column chooser's order. */
export const URL_TABLE_FIELDS: readonly UrlField[] = [
  notNull(text('url', 'URL', 'p.url', 'The URL as crawled.')),
  text('final_url', 'Final URL', 'p.final_url', 'Where its redirects ended.'),
  enumeration('kind', 'Kind', 'p.kind', URL_KINDS, 'HTML page, redirect, error answer, other file, or no answer.'),
  int('status', 'Status', 'p.status_code', 'The HTTP status code (empty: no answer).'),
  enumeration(
    'status_class',
    'Status class',
    `CASE WHEN p.status_code IS NULL THEN 'FAILED' WHEN p.status_code BETWEEN 200 AND 299 THEN 'SUCCESS'
      WHEN p.status_code BETWEEN 300 AND 399 THEN 'REDIRECT' WHEN p.status_code BETWEEN 400 AND 499 THEN 'CLIENT_ERROR'
      WHEN p.status_code BETWEEN 500 AND 599 THEN 'SERVER_ERROR' END`,
    STATUS_CLASSES,
    '2xx, 3xx, 4xx, 5xx, or no answer.',
  ),
  text('error', 'Fetch error', 'p.error', 'Why the fetch failed.'),
  int('redirects', 'Redirect hops', detailCount('redirects'), 'Redirect responses from this URL.'),
  bool('indexable', 'Indexable', 'p.indexable', 'Search engines may index it.'),
  enumeration(
    'non_indexable_reason',
    'Why not indexable',
    detailText('nonIndexable'),
    NON_INDEXABLE_REASONS,
    'Why it is not indexable (empty when it is).',
  ),
  text('canonical', 'Canonical', 'p.canonical', 'The effective canonical URL.'),
  bool(
    'canonical_self',
    'Self-canonical',
    '(p.canonical IS NOT NULL AND p.canonical = p.url)',
    'Its canonical names the URL itself.',
  ),
  text('meta_robots', 'Meta robots', detailList('robotsMeta'), 'Its robots and googlebot meta tags.'),
  text('x_robots_tag', 'X-Robots-Tag', detailList('xRobotsTag'), 'Its X-Robots-Tag header values.'),
  enumeration(
    'robots_txt',
    'robots.txt',
    detailText('robotsTxt'),
    ['allowed', 'disallowed', 'no-rules'],
    "robots.txt's verdict for the crawler.",
  ),
  text('title', 'Title', 'p.title', 'The title element.'),
  int('title_length', 'Title length', 'char_length(p.title)', 'Characters of the title.'),
  text('description', 'Meta description', 'p.meta_description', 'The meta description.'),
  int(
    'description_length',
    'Description length',
    'char_length(p.meta_description)',
    'Characters of the meta description.',
  ),
  text('h1', 'H1', `(p.details->'h1'->>0)`, 'The first h1 heading.'),
  int('h1_count', 'H1 count', detailCount('h1'), 'h1 headings on the page (the first 5 are kept).'),
  notNull(int('words', 'Words', 'p.word_count', 'Words of visible text.')),
  notNull(int('depth', 'Depth', 'p.depth', 'Clicks from the start URL.')),
  storedInt(STORED_INLINKS.ALL, 'Inlinks', inlinksOfSql('p.url'), `p.${STORED_INLINKS.ALL}`, INLINKS_DESCRIPTION),
  inlinksAt('CONTENT', 'Inlinks from content', 'Pages linking to it from their content.'),
  inlinksAt(
    'NAVIGATION',
    'Inlinks from navigation',
    'Pages linking to it from a navigation block (menus, breadcrumbs).',
  ),
  inlinksAt('HEADER', 'Inlinks from header', 'Pages linking to it from their page header.'),
  inlinksAt('ASIDE', 'Inlinks from aside', 'Pages linking to it from an aside (sidebar).'),
  inlinksAt('FOOTER', 'Inlinks from footer', 'Pages linking to it from their page footer.'),
  notNull(int('outlinks', 'Outlinks', 'p.outlinks', 'Distinct URLs its followable links point to.')),
  int('links', 'Links', `(p.details->>'linkCount')::int`, "An HTML page's links (<a>, <area>), read or not."),
  int(
    'links_not_read',
    'Links not read',
    `COALESCE((p.details->>'linksNotRead')::int, 0)`,
    'Links past the per-page cap: not followed, checked or in the link graph.',
  ),
  int('response_time', 'Response time (ms)', 'p.response_time_ms', 'Time to the first byte.'),
  notNull(int('size', 'Size (bytes)', 'p.bytes', 'Bytes of the response body.')),
  text('content_type', 'Content type', detailText('contentType'), 'The Content-Type header.'),
  text('language', 'Language', detailText('lang'), 'The html lang attribute.'),
  int('hreflang_count', 'Hreflang links', detailCount('hreflang'), 'Its hreflang alternates.'),
  text(
    'structured_data_types',
    'Structured data types',
    detailList('structuredData'),
    'schema.org types of its JSON-LD.',
  ),
  int('structured_data_count', 'Structured data items', detailCount('structuredData'), 'Its JSON-LD types.'),
  int('resources', 'Resources', detailCount('resources'), 'Subresources it loads (the first 100 are kept).'),
  bool('body_capped', 'Body capped', `COALESCE((p.details->>'bodyCapped')::boolean, false)`, 'Over the size cap.'),
  int('url_length', 'URL length', 'char_length(p.url)', 'Characters of the URL.'),
  bool('has_query', 'Has query string', `(position('?' in p.url) > 0)`, 'The URL has a query string.'),
  float('lab_lcp', 'Lab LCP (ms)', labVital('lcp_ms'), 'Largest Contentful Paint measured in the lab.'),
  float('lab_cls', 'Lab CLS', labVital('cls'), 'Cumulative Layout Shift measured in the lab.'),
  float('lab_tbt', 'Lab TBT (ms)', labVital('tbt_ms'), 'Total Blocking Time measured in the lab.'),
  float('lab_fcp', 'Lab FCP (ms)', labVital('fcp_ms'), 'First Contentful Paint measured in the lab.'),
  float('lab_ttfb', 'Lab TTFB (ms)', labVital('ttfb_ms'), 'Time to first byte measured in the lab.'),
  int('lab_score', 'Lab performance score', labVital('performance_score'), 'Lighthouse-style score, 0-100.'),
  field({
    ...int('ranking_keywords', 'Ranking keywords', 'COALESCE(rk.keywords, 0)', ''),
    description:
      "Tracked keywords whose latest check ranks this URL (the project's keywords; a ranking URL names the page " +
      'crawled under it with or without www., https, trailing slash or fragment, as the ranking pages match it).',
    ranking: true,
  }),
  field({
    ...int('best_position', 'Best position', 'rk.best', ''),
    description: 'Its best position among those keywords.',
    ranking: true,
  }),
  storedInt(
    'issues',
    'Issues',
    `(SELECT count(*) ${OCCURRENCES_OF_ROW})::int`,
    'p.issue_count',
    'Issue occurrences on the URL.',
  ),
  bySeverity('CRITICAL', 'critical_issues', 'Critical issues', 'Critical occurrences (completed audits).'),
  bySeverity('WARNING', 'warning_issues', 'Warnings', 'Warning occurrences (completed audits).'),
  bySeverity('NOTICE', 'notice_issues', 'Notices', 'Notice occurrences (completed audits).'),
  storedInt(
    'issue_codes',
    'Distinct checks failed',
    `(SELECT count(DISTINCT o2.code) ${OCCURRENCES_OF_ROW})::int`,
    'p.issue_codes',
    'Distinct check codes on the URL.',
  ),
  float(
    'render_ms',
    'Render time (ms)',
    `(p.rendering->>'renderMs')::float8`,
    'Browser rendering mode: navigation to the rendered snapshot.',
  ),
  int(
    'console_errors',
    'Console errors',
    `(p.rendering->>'consoleErrorCount')::int`,
    'Browser rendering mode: console errors and exceptions.',
  ),
  text(
    'first_seen',
    'First seen',
    seen('first_seen'),
    "When the project's first audit that crawled the URL started (completed audits and this one; UTC).",
  ),
  text(
    'last_seen',
    'Last seen',
    seen('last_seen'),
    "When the project's last audit that crawled the URL started (completed audits and this one; UTC).",
  ),
  field({
    ...text('segment', 'Segments', 'NULL::text', ''),
    description:
      "The project's segments the URL is in, by name (sorted, comma-separated). Filter: contains, not_contains, " +
      'is_empty, is_not_empty on the names; eq (in) and neq (not in) take a segment id.',
    operators: ['contains', 'not_contains', 'is_empty', 'is_not_empty'],
  }),
];

/** The key of the segment names column; as a filter field, eq/neq with a segment id also select a segment's URLs. */
export const SEGMENT_NAMES_FIELD = 'segment';

/** A segment the names column shows: its rule, and whether its members in the audit are kept (SegmentMembership). */
export interface NamedSegment {
  id: string;
  name: string;
  rule: UrlFilter;
  /** Its members in the audit are kept in audit_segment_member under its current rule: read, not its rule. */
  stored: boolean;
}

/** Whether the row's page is a kept member of the segment (`segmentId` a parameter). */
const memberOf = (segmentId: string) =>
  `EXISTS (SELECT 1 FROM audit_segment_member m WHERE m.audit_id = $1 AND m.page_id = p.id
    AND m.segment_id = ${segmentId})`;

/**
 * The segment names column over the project's segments (in their order, by name): the name of each segment the row
 * is in, joined by ", ", or null for a URL in none. A segment whose members are kept is read from audit_segment_member
 * (one probe of its key per row, the ids one array parameter); only the others (a running audit's, a rule reading what
 * changes after the audit) carry their rule into the statement. The SQL is made once per statement: the sort, the
 * keyset and a filter on the names reuse its parameters.
 */
export function segmentNamesField(segments: readonly NamedSegment[]): UrlField {
  const base = URL_FIELDS_BY_KEY.get(SEGMENT_NAMES_FIELD)!;
  if (!segments.length) return base;
  const made = new WeakMap<object, string>();
  const inline = segments.flatMap((s, i) => (s.stored ? [] : [{ ...s, ord: i + 1 }]));
  return {
    ...base,
    ranking: inline.some((s) => filterUsesRanking(s.rule)),
    sqlOf: (param) => {
      const cached = made.get(param);
      if (cached) return cached;
      const parts: string[] = [];
      if (segments.some((s) => s.stored)) {
        const ids = param(
          segments.map((s) => s.id),
          'uuid[]',
        );
        const names = param(
          segments.map((s) => s.name),
          'text[]',
        );
        parts.push(`SELECT (${names})[array_position(${ids}, m.segment_id)] AS name,
          array_position(${ids}, m.segment_id) AS ord FROM audit_segment_member m
          WHERE m.audit_id = $1 AND m.page_id = p.id AND m.segment_id = ANY(${param(
            segments.filter((s) => s.stored).map((s) => s.id),
            'uuid[]',
          )})`);
      }
      if (inline.length)
        parts.push(
          `SELECT v.name, v.ord FROM (VALUES ${inline
            .map((s) => `(${param(s.name, 'text')}, ${s.ord}, COALESCE(${filterSql(s.rule, param) ?? 'false'}, false))`)
            .join(', ')}) v(name, ord, inside) WHERE v.inside`,
        );
      const sql = `(SELECT string_agg(x.name, ', ' ORDER BY x.ord) FROM (${parts.join(' UNION ALL ')}) x)`;
      made.set(param, sql);
      return sql;
    },
  };
}

/*
 * The largest statement the URL table sends (its rows, its count, a segment's facts or members): past it the
 * statement is refused before it is sent (assertGridStatement), not built for PostgreSQL to parse, plan and log.
 * A view within the documented limits (80 columns, 10 groups of 20 conditions, 50 segments of at most 20 conditions
 * each, kept as members once an audit completes) stays far below: docs/segments.md gives the measured sizes.
 */
export const MAX_GRID_STATEMENT_PARAMS = 5_000;
export const MAX_GRID_STATEMENT_CHARS = 512 * 1024;

/** The one check of a grid statement's size: BAD_USER_INPUT naming both figures and the limits, before it is sent. */
export function assertGridStatement(text: string, params: readonly unknown[]): void {
  if (params.length <= MAX_GRID_STATEMENT_PARAMS && text.length <= MAX_GRID_STATEMENT_CHARS) return;
  const message =
    `this view would need a statement of ${params.length} parameters and ${text.length} characters (the limits are ` +
    `${MAX_GRID_STATEMENT_PARAMS} and ${MAX_GRID_STATEMENT_CHARS}): use fewer conditions, "in segment" conditions ` +
    'or segments with long rules';
  throw badInput(`filter: ${message}`, [{ path: 'filter', message }]);
}

/**
 * A grid statement, its size checked first (assertGridStatement), then run bounded (boundedQuery: `run`'s class
 * time limit, the organization's slots, cancelled when the caller's signal aborts).
 */
const gridQuery = <T>(db: NativeDb, run: BoundedRun, text: string, params: unknown[]): Promise<T[]> => {
  assertGridStatement(text, params);
  return boundedQuery<T>(db, run, text, params);
};

/** Every field by key. */
export const URL_FIELDS_BY_KEY: ReadonlyMap<string, UrlField> = new Map(URL_TABLE_FIELDS.map((f) => [f.key, f]));

/** A condition as a transport hands it over (GraphQL strings; REST's filter JSON may carry numbers and booleans). */
export interface UrlConditionInput {
  field: string;
  operator: string;
  value?: unknown;
  valueTo?: unknown;
}
export interface UrlFilterInput {
  combinator?: string | null;
  groups: readonly { combinator?: string | null; conditions: readonly UrlConditionInput[] }[];
}

/** A custom extractor an audit ran (audit.extractors): its key, name and kind. */
export interface AuditExtractor {
  key: string;
  name: string;
  kind: string;
}

/** What an extractor that ran out of the page's time budget shows (docs/custom-extraction.md). */
export const TIMED_OUT = '(timed out)';
const SAFE_KEY = /^[a-z0-9_]{1,40}$/;

/**
 * The URL table fields of an audit's custom extractors: `extract.<key>` (the values, joined by " | ") and
 * `search.<key>` (yes or no), read from audit_page.extraction. Keys are checked by the database (project_extractor)
 * and again here, as they are written into the SQL.
 */
export function extractorFields(extractors: readonly AuditExtractor[]): UrlField[] {
  return extractors
    .filter((e) => SAFE_KEY.test(e.key))
    .map((e) => {
      const value = `p.extraction->'${e.key}'`;
      if (e.kind === 'CONTAINS' || e.kind === 'NOT_CONTAINS')
        return bool(
          `search.${e.key}`,
          e.name,
          `(CASE jsonb_typeof(${value}) WHEN 'boolean' THEN (${value})::boolean END)`,
          `Custom search (${e.kind === 'CONTAINS' ? 'contains' : 'does not contain'}): the page's HTML passed it.`,
        );
      return text(
        `extract.${e.key}`,
        e.name,
        `(CASE jsonb_typeof(${value}) WHEN 'array' THEN (SELECT string_agg(v, ' | ')
          FROM jsonb_array_elements_text(${value}) v) WHEN 'string' THEN '${TIMED_OUT}' END)`,
        `Custom extraction (${e.kind}): its values joined by " | "; ${TIMED_OUT} when the page's budget ran out.`,
      );
    });
}

/** The registry's fields as a completed audit reads them: its stored counts where a field has one. */
const COMPLETED_FIELDS_BY_KEY: ReadonlyMap<string, UrlField> = new Map(
  URL_TABLE_FIELDS.map((f) => [f.key, f.stored ? { ...f, sql: f.stored, notNull: true } : f]),
);

/**
 * An audit's fields: the registry's (reading the stored counts once it is COMPLETED; a running audit's are counted
 * live) and those of the custom extractors it ran.
 */
export function auditFieldsByKey(
  extractors: readonly AuditExtractor[],
  completed: boolean,
): ReadonlyMap<string, UrlField> {
  const registry = completed ? COMPLETED_FIELDS_BY_KEY : URL_FIELDS_BY_KEY;
  if (!extractors.length) return registry;
  return new Map([...registry, ...extractorFields(extractors).map((f) => [f.key, f] as const)]);
}

/** A condition the service validated: a field of the registry (or an issue code) with its parsed values. */
export type UrlCondition =
  | { kind: 'field'; field: UrlField; operator: UrlOperator; values: readonly (string | number | boolean)[] }
  | { kind: 'issue'; code: string; has: boolean }
  /** In (has) or out of one of the project's segments: its rule as a filter, resolved by the service. */
  | {
      kind: 'segment';
      segmentId: string;
      has: boolean;
      filter: UrlFilter | null;
      /** Its members in the audit are kept (audit_segment_member): read, not its rule. */
      stored?: boolean;
    };

export interface UrlConditionGroup {
  combinator: 'AND' | 'OR';
  conditions: readonly UrlCondition[];
}

export interface UrlFilter {
  combinator: 'AND' | 'OR';
  groups: readonly UrlConditionGroup[];
}

/** One keyset page of the table, as the service validated it. */
export interface UrlTableSlice {
  auditId: string;
  organizationId: string;
  columns: readonly UrlField[];
  /** The table of one check's occurrences (a row per occurrence, with its evidence), or null for every URL. */
  checkCode: string | null;
  filter: UrlFilter | null;
  /** The chosen segment's rule (its URLs only), or null for all of them. */
  segment: UrlFilter | null;
  sort: UrlField;
  direction: 'ASC' | 'DESC';
  /** Sort ranking URLs first (the issue table's default), before the sort. */
  rankingFirst: boolean;
  first: number;
  cursor: { value: string | number | boolean | null; ranked: boolean | null; id: string } | null;
  withTotal: boolean;
}

export interface UrlTableRow {
  id: string;
  url: string;
  /** The columns' values, in the slice's order. */
  values: unknown[];
  /** The occurrence's evidence (scoped tables). */
  evidence: unknown;
  sortValue: string | number | boolean | null;
  ranked: boolean | null;
}

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The SQL of one condition; its values are pushed as parameters. */
function conditionSql(condition: UrlCondition, param: (value: unknown, type: string) => string): string {
  if (condition.kind === 'issue') {
    // A completed audit's page carries the set of checks found on it (storePageCounts): a test on the row. While
    // the audit runs the set is NULL and its occurrences are probed: a correlated EXISTS (an index probe per row;
    // CASE runs it only then). Not `url IN (subquery)`: past work_mem PostgreSQL does not hash the subquery and
    // scans it per row, which ran for minutes on 100,000 URLs. A scoped table's occurrence without a page: false.
    const code = param(condition.code, 'text');
    const has = `(CASE WHEN p.issue_code_set IS NOT NULL THEN p.issue_code_set @> ARRAY[${code}]
      ELSE EXISTS (SELECT 1 FROM issue_occurrence oi WHERE oi.audit_id = $1 AND oi.url = p.url AND oi.code = ${code})
      END)`;
    return condition.has ? has : `NOT ${has}`;
  }
  if (condition.kind === 'segment') {
    const inside = condition.stored
      ? memberOf(param(condition.segmentId, 'uuid'))
      : ((condition.filter && filterSql(condition.filter, param)) ?? 'false');
    // A condition on a missing value is NULL: such a URL is out of the segment, so "not in it" must hold for it.
    return condition.has ? `COALESCE(${inside}, false)` : `NOT COALESCE(${inside}, false)`;
  }
  const { field: f, operator, values } = condition;
  const e = fieldSql(f, param);
  const v = (i: number) => param(values[i], f.pgType);
  switch (operator) {
    case 'eq':
      return `${e} = ${v(0)}`;
    case 'neq':
      return `${e} IS DISTINCT FROM ${v(0)}`;
    case 'contains':
      return `${e} ILIKE ${param(likePattern(String(values[0])), 'text')} ESCAPE '\\'`;
    case 'not_contains':
      return `(${e} IS NULL OR ${e} NOT ILIKE ${param(likePattern(String(values[0])), 'text')} ESCAPE '\\')`;
    case 'regex':
      return `${e} ~ ${param(values[0], 'text')}`;
    case 'gt':
      return `${e} > ${v(0)}`;
    case 'gte':
      return `${e} >= ${v(0)}`;
    case 'lt':
      return `${e} < ${v(0)}`;
    case 'lte':
      return `${e} <= ${v(0)}`;
    case 'between':
      return `${e} BETWEEN ${v(0)} AND ${v(1)}`;
    case 'is_empty':
      return f.pgType === 'text' ? `(${e} IS NULL OR ${e} = '')` : `${e} IS NULL`;
    case 'is_not_empty':
      return f.pgType === 'text' ? `(${e} IS NOT NULL AND ${e} <> '')` : `${e} IS NOT NULL`;
  }
}

/**
 * Roughly what a condition costs per row. PostgreSQL evaluates the terms of an AND or OR inside an expression in the
 * order written, and stops at the first that decides (it orders by cost only a WHERE's top-level list), so each
 * group tests its cheap conditions first and the cheap groups go first. On 100,000 URLs a regular expression costs
 * 3-6 µs a row where a comparison on a column costs a tenth of that: a filter "(URL regex AND words > 300) OR has
 * issue X" took 532 ms when the regex ran on every row. AND and OR give the same answer in any order.
 */
function conditionCost(c: UrlCondition): number {
  if (c.kind === 'issue') return 2;
  if (c.kind === 'segment') return c.stored ? 2 : c.filter ? filterCost(c.filter) : 0;
  const perRow = c.field.sqlOf || /\bSELECT\b/i.test(c.field.sql) ? 8 : 0;
  const test = c.operator === 'regex' ? 6 : c.operator === 'contains' || c.operator === 'not_contains' ? 3 : 1;
  return perRow + test;
}

const groupCost = (g: UrlConditionGroup): number => Math.max(0, ...g.conditions.map(conditionCost));
const filterCost = (f: UrlFilter): number => Math.max(0, ...f.groups.map(groupCost));
/** Cheapest first; equal costs keep the order given. */
const byCost = <T>(items: readonly T[], cost: (item: T) => number): T[] =>
  items
    .map((item, i) => ({ item, i, cost: cost(item) }))
    .sort((a, b) => a.cost - b.cost || a.i - b.i)
    .map((x) => x.item);

export function filterSql(filter: UrlFilter, param: (value: unknown, type: string) => string): string | null {
  const groups = byCost(
    filter.groups.filter((g) => g.conditions.length),
    groupCost,
  ).map(
    (g) =>
      `(${byCost(g.conditions, conditionCost)
        .map((c) => `(${conditionSql(c, param)})`)
        .join(` ${g.combinator} `)})`,
  );
  return groups.length ? `(${groups.join(` ${filter.combinator} `)})` : null;
}

/** Whether a filter reads the ranking keywords (a field of theirs, here or in a segment's rule). */
export const filterUsesRanking = (filter: UrlFilter | null): boolean =>
  (filter?.groups ?? []).some((g) =>
    g.conditions.some(
      (c) => (c.kind === 'field' && c.field.ranking === true) || (c.kind === 'segment' && filterUsesRanking(c.filter)),
    ),
  );

/** Fields whose values change after the audit: the project's later audits (first/last seen), today's rankings. */
const readsBeyondTheAudit = (f: UrlField): boolean =>
  f.ranking === true || f.key === 'first_seen' || f.key === 'last_seen';

/** Whether a filter reads only the audit's own rows (so its answer for a completed audit never changes). */
export const filterReadsOnlyTheAudit = (filter: UrlFilter): boolean =>
  filter.groups.every((g) =>
    g.conditions.every(
      (c) =>
        c.kind === 'issue' ||
        (c.kind === 'field' && !readsBeyondTheAudit(c.field)) ||
        (c.kind === 'segment' && c.filter !== null && filterReadsOnlyTheAudit(c.filter)),
    ),
  );

const usesRanking = (slice: UrlTableSlice): boolean =>
  slice.rankingFirst ||
  slice.sort.ranking === true ||
  slice.columns.some((c) => c.ranking) ||
  filterUsesRanking(slice.filter) ||
  filterUsesRanking(slice.segment);

/** What scoring needs of a segment's URLs in one audit (SegmentService scores them with the audit's formula). */
export interface SegmentFacts {
  urls: number;
  htmlPages: number;
  htmlWithCritical: number;
  /** HTML pages without a CRITICAL occurrence that a `shownWorse` check fails on (2/3 of a healthy page each). */
  htmlShownWorse: number;
  /**
   * Per check with occurrences in the segment: its stored severity and category, the segment's URLs it affects, and
   * of them those with an occurrence no "won't fix" marking covers (what the score prices).
   */
  checks: {
    code: string;
    severity: 'CRITICAL' | 'WARNING' | 'NOTICE';
    category: string;
    affected: number;
    unmarked: number;
    /** Its occurrences on the segment's URLs. */
    occurrences: number;
  }[];
}

/** (code, URL) pairs a "won't fix" marking applies to in the audit (WontFixRepository.appliedMarkings). */
export interface MarkedOccurrences {
  codes: readonly string[];
  urls: readonly string[];
}

/**
 * Per crawled URL, the project's tracked keywords whose latest check ranks it: how many and the best position, as
 * rankedUrlsOf matched them ($2, $3, $4: its arrays).
 */
const RANKING_CTE = `rk AS MATERIALIZED (SELECT url, keywords, best
  FROM unnest($2::text[], $3::int[], $4::int[]) AS rk(url, keywords, best))`;

/** The parameters of RANKING_CTE. */
const rankingParams = (ranked: RankedUrls) => [ranked.urls, ranked.keywords, ranked.best];

export class UrlTableRepository {
  /**
   * A check's evidence shape over the audit (its table's evidence columns, the same on every page): as the worker
   * stored it with the audit's issues, or, for an audit stored before the worker did, from its occurrences.
   */
  async evidenceShape(db: NativeDb, auditId: string, code: string): Promise<EvidenceKeyShape[]> {
    const [stored] = await nativeQuery<{ shape: EvidenceKeyShape[] | null }>(
      db,
      'SELECT evidence_shape AS shape FROM audit_issue WHERE audit_id = $1 AND code = $2',
      [auditId, code],
    );
    return stored?.shape ?? this.evidenceShapeOfOccurrences(db, auditId, code);
  }

  /** The shape read from every occurrence of the check (one pass in SQL). */
  async evidenceShapeOfOccurrences(db: NativeDb, auditId: string, code: string): Promise<EvidenceKeyShape[]> {
    const rows = await nativeQuery<{
      key: string;
      sub: string | null;
      types: string[];
      itemTypes: string[] | null;
      ownUrl: boolean | null;
    }>(
      db,
      `WITH k AS (SELECT e.key, e.value, o.url FROM issue_occurrence o, jsonb_each(o.evidence) e
                  WHERE o.audit_id = $1 AND o.code = $2 AND jsonb_typeof(o.evidence) = 'object'),
       items AS (SELECT k.key, i.value FROM k, jsonb_array_elements(
                   CASE WHEN jsonb_typeof(k.value) = 'array' THEN k.value ELSE '[]'::jsonb END) i)
       SELECT k.key, NULL AS sub, array_agg(DISTINCT jsonb_typeof(k.value)) AS types,
         (SELECT array_agg(DISTINCT jsonb_typeof(i.value)) FROM items i WHERE i.key = k.key) AS "itemTypes",
         bool_and(k.value = to_jsonb(k.url)) AS "ownUrl"
       FROM k GROUP BY k.key
       UNION ALL
       SELECT x.key, s.key AS sub, array_agg(DISTINCT jsonb_typeof(s.value)) AS types, NULL AS "itemTypes",
         NULL AS "ownUrl"
       FROM (SELECT key, value FROM k WHERE jsonb_typeof(value) = 'object'
             UNION ALL SELECT key, value FROM items WHERE jsonb_typeof(value) = 'object') x, jsonb_each(x.value) s
       GROUP BY x.key, s.key
       ORDER BY 1, 2 NULLS FIRST`,
      [auditId, code],
    );
    const shapes = new Map<string, EvidenceKeyShape>();
    for (const row of rows) {
      const shape = shapes.get(row.key) ?? { key: row.key, types: [], itemTypes: [], subKeys: [] };
      if (row.sub === null)
        Object.assign(shape, { types: row.types, itemTypes: row.itemTypes ?? [], ownUrl: row.ownUrl === true });
      else shape.subKeys.push({ key: row.sub, types: row.types });
      shapes.set(row.key, shape);
    }
    return [...shapes.values()];
  }

  /** The audit's project, extractors and whether it is COMPLETED when it is the organization's, else null. */
  async ownedAudit(
    db: NativeDb,
    auditId: string,
    organizationId: string,
  ): Promise<{ projectId: string; extractors: AuditExtractor[]; completed: boolean } | null> {
    const [row] = await nativeQuery<{ projectId: string; extractors: AuditExtractor[]; completed: boolean }>(
      db,
      `SELECT a.project_id AS "projectId", COALESCE(a.extractors, '[]'::jsonb) AS extractors,
         a.status = 'COMPLETED' AS completed
       FROM audit a JOIN project pr ON pr.id = a.project_id
       WHERE a.id = $1 AND pr.organization_id = $2`,
      [auditId, organizationId],
    );
    return row ?? null;
  }

  /**
   * PostgreSQL's complaint about a regular expression (the filter's regex operator runs there), or null. Compiled
   * under the grid's time limit, outside the gate (it matches one empty string).
   */
  async regexError(db: NativeDb, pattern: string): Promise<string | null> {
    try {
      await boundedQuery(db, { cls: 'grid' }, `SELECT '' ~ $1 AS ok`, [pattern]);
      return null;
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      if (code === '2201B') return message ?? 'invalid regular expression';
      throw error;
    }
  }

  /**
   * A segment's URLs in an audit, counted for scoring: all of them, the HTML pages, the HTML pages with a CRITICAL
   * occurrence no marking covers, and per check the distinct URLs it affects (all, and those with an unmarked
   * occurrence). The audit must be owned before; `rule` validated; `marked` the markings that apply to the audit.
   * Both statements are bounded (`run`: the segment class, the caller's organization and signal).
   */
  async segmentFacts(
    db: NativeDb,
    auditId: string,
    rule: UrlFilter,
    rankedUrls: () => Promise<RankedUrls>,
    marked: MarkedOccurrences = { codes: [], urls: [] },
    run: BoundedRun = { cls: 'segment' },
  ): Promise<SegmentFacts> {
    const ranking = filterUsesRanking(rule);
    const params: unknown[] = ranking ? [auditId, ...rankingParams(await rankedUrls())] : [auditId];
    const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
    const where = filterSql(rule, param) ?? 'true';
    const codes = param(marked.codes, 'text[]');
    const urls = param(marked.urls, 'text[]');
    const seg = `${ranking ? `${RANKING_CTE}, ` : ''}seg AS MATERIALIZED (SELECT p.url, p.kind = 'HTML' AS html
      FROM audit_page p${ranking ? ' LEFT JOIN rk ON rk.url = p.url' : ''} WHERE p.audit_id = $1 AND ${where}),
      m AS MATERIALIZED (SELECT * FROM unnest(${codes}, ${urls}) AS m(code, url))`;
    const unmarked = 'NOT EXISTS (SELECT 1 FROM m WHERE m.code = o.code AND m.url = o.url)';
    // Its own parameter list: the checks' statement below does not name this one (an unused one has no type).
    const countParams = [...params, SHOWN_WORSE_CODES];
    const shownWorse = `$${countParams.length}::text[]`;
    const [counts] = await gridQuery<Omit<SegmentFacts, 'checks'>>(
      db,
      run,
      `WITH ${seg}, f AS (SELECT seg.html,
         EXISTS (SELECT 1 FROM issue_occurrence o JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
           WHERE o.audit_id = $1 AND o.url = seg.url AND i.severity = 'CRITICAL' AND ${unmarked}) AS critical,
         EXISTS (SELECT 1 FROM issue_occurrence o
           WHERE o.audit_id = $1 AND o.url = seg.url AND o.code = ANY(${shownWorse}) AND ${unmarked}) AS worse
         FROM seg)
       SELECT count(*)::int AS urls, count(*) FILTER (WHERE f.html)::int AS "htmlPages",
         count(*) FILTER (WHERE f.html AND f.critical)::int AS "htmlWithCritical",
         count(*) FILTER (WHERE f.html AND NOT f.critical AND f.worse)::int AS "htmlShownWorse"
       FROM f`,
      countParams,
    );
    const checks = await gridQuery<SegmentFacts['checks'][number]>(
      db,
      run,
      `WITH ${seg} SELECT i.code, i.severity, i.category, count(DISTINCT o.url)::int AS affected,
         count(DISTINCT o.url) FILTER (WHERE ${unmarked})::int AS unmarked, count(*)::int AS occurrences
       FROM issue_occurrence o JOIN seg ON seg.url = o.url
       JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
       WHERE o.audit_id = $1 GROUP BY i.code, i.severity, i.category ORDER BY i.code`,
      params,
    );
    return { ...counts, checks };
  }

  /**
   * Keeps the segment's members in a completed audit under `ruleKey` (its rule, validated; one that reads only the
   * audit's rows): written again when the kept ones were written under another rule (the segment was edited), left
   * alone when they are current. One transaction per segment, serialized per (audit, segment) by an advisory lock,
   * so two readers do not both write them: `busy` when another holds it (not waited for). Returns what was done.
   */
  async keepSegmentMembers(
    db: NativeDb,
    auditId: string,
    segmentId: string,
    ruleKey: string,
    rule: UrlFilter,
  ): Promise<'written' | 'kept' | 'busy'> {
    const params: unknown[] = [auditId, segmentId];
    const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
    const where = filterSql(rule, param) ?? 'false';
    const key = param(ruleKey, 'text');
    const insert = `WITH ins AS (INSERT INTO audit_segment_member (audit_id, page_id, segment_id)
        SELECT $1, p.id, $2 FROM audit_page p WHERE p.audit_id = $1 AND COALESCE(${where}, false) RETURNING 1)
      INSERT INTO audit_segment_membership (audit_id, segment_id, rule_key, pages)
      SELECT $1, $2, ${key}, (SELECT count(*)::int FROM ins)
      ON CONFLICT (audit_id, segment_id) DO UPDATE SET rule_key = EXCLUDED.rule_key, pages = EXCLUDED.pages,
        computed_at = now()`;
    assertGridStatement(insert, params);
    // Its statements have the segment class's time limit: a rule too slow to run is refused, not left running.
    return nativeTransaction(
      db,
      async (tx) => {
        // Another request writing them holds the lock: this one does not wait on it with a connection of the pool.
        const [locked] = await tx.query<{ locked: boolean }>(
          `SELECT pg_try_advisory_xact_lock(hashtextextended('audit_segment_member ' || $1 || ' ' || $2, 0))
             AS locked`,
          [auditId, segmentId],
        );
        if (!locked.locked) return 'busy';
        const [kept] = await tx.query<{ ruleKey: string }>(
          'SELECT rule_key AS "ruleKey" FROM audit_segment_membership WHERE audit_id = $1 AND segment_id = $2',
          [auditId, segmentId],
        );
        if (kept?.ruleKey === ruleKey) return 'kept';
        await tx.query('DELETE FROM audit_segment_member WHERE audit_id = $1 AND segment_id = $2', [
          auditId,
          segmentId,
        ]);
        await tx.query(insert, params);
        return 'written';
      },
      { cls: 'segment' },
    );
  }

  /** The rule keys the segments' members in the audit are kept under, by segment id. */
  async keptMemberships(db: NativeDb, auditId: string): Promise<Map<string, string>> {
    const rows = await nativeQuery<{ segmentId: string; ruleKey: string }>(
      db,
      `SELECT segment_id AS "segmentId", rule_key AS "ruleKey" FROM audit_segment_membership WHERE audit_id = $1`,
      [auditId],
    );
    return new Map(rows.map((r) => [r.segmentId, r.ruleKey]));
  }

  /**
   * Per check of `codes`, the segment's URLs in the audit `auditId` that have it and did not in the audit `baseId`
   * (issues new on the segment's URLs): how many, and the first 5 by URL. The audit must be owned before.
   */
  async segmentNewIssues(
    db: NativeDb,
    auditId: string,
    baseId: string,
    rule: UrlFilter,
    codes: readonly string[],
    rankedUrls: () => Promise<RankedUrls>,
    run: BoundedRun = { cls: 'segment' },
  ): Promise<{ code: string; urls: number; exampleUrls: string[] }[]> {
    if (!codes.length) return [];
    const ranking = filterUsesRanking(rule);
    const params: unknown[] = ranking ? [auditId, ...rankingParams(await rankedUrls())] : [auditId];
    const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
    const where = filterSql(rule, param) ?? 'true';
    const base = param(baseId, 'uuid');
    const codeList = param(codes, 'text[]');
    return gridQuery<{ code: string; urls: number; exampleUrls: string[] }>(
      db,
      run,
      `WITH ${ranking ? `${RANKING_CTE}, ` : ''}seg AS MATERIALIZED (SELECT p.url FROM audit_page p
         ${ranking ? 'LEFT JOIN rk ON rk.url = p.url ' : ''}WHERE p.audit_id = $1 AND ${where})
       SELECT o.code, count(DISTINCT o.url)::int AS urls,
         (array_agg(DISTINCT o.url ORDER BY o.url))[1:5] AS "exampleUrls"
       FROM issue_occurrence o JOIN seg ON seg.url = o.url
       WHERE o.audit_id = $1 AND o.code = ANY(${codeList})
         AND NOT EXISTS (SELECT 1 FROM issue_occurrence b WHERE b.audit_id = ${base} AND b.code = o.code
           AND b.url = o.url)
       GROUP BY o.code ORDER BY o.code`,
      params,
    );
  }

  /**
   * `first + 1` rows after the cursor (the extra one says there is a next page), and the total of the filter when
   * asked. The audit must be owned (ownedAudit) before; `rankedUrls` is read only when the slice shows, filters or
   * sorts on the ranking keywords. The page and the count are bounded statements (`run`: the grid or export class,
   * the organization's slots, the caller's signal).
   */
  async list(
    db: NativeDb,
    slice: UrlTableSlice,
    rankedUrls: () => Promise<RankedUrls>,
    run: BoundedRun = { cls: 'grid' },
  ): Promise<{ rows: UrlTableRow[]; total: number | null }> {
    const rankedSet = usesRanking(slice) ? await rankedUrls() : null;
    // When no URL ranks, "ranking URLs first" orders nothing: the order (and the keyset) go without it, so an issue's
    // 100,000 occurrences are read in their index's order, not all joined and sorted for the first 50.
    const rankingFirst = slice.rankingFirst && rankedSet !== null && rankedSet.urls.length > 0;
    const ranking = rankedSet !== null && usesRanking({ ...slice, rankingFirst });
    // $1 the audit, $2-$4 the ranked URLs when the ranking keywords are read (RANKING_CTE); the rest the caller's.
    const params: unknown[] = ranking && rankedSet ? [slice.auditId, ...rankingParams(rankedSet)] : [slice.auditId];
    const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
    const scoped = slice.checkCode !== null;
    const rowId = scoped ? 'o.id' : 'p.id';
    const from = scoped
      ? `issue_occurrence o LEFT JOIN audit_page p ON p.audit_id = o.audit_id AND p.url = o.url`
      : 'audit_page p';
    const joins = ranking ? ` LEFT JOIN rk ON rk.url = ${scoped ? 'o.url' : 'p.url'}` : '';
    const conditions = [scoped ? `o.audit_id = $1 AND o.code = ${param(slice.checkCode, 'text')}` : 'p.audit_id = $1'];
    for (const f of [slice.filter, slice.segment]) {
      const sql = f && filterSql(f, param);
      if (sql) conditions.push(sql);
    }
    const countParams = [...params];
    const expr = (f: UrlField) => (scoped && f.key === 'url' ? 'o.url' : fieldSql(f, param));
    const sortExpr = expr(slice.sort);
    // An issue's table joins its pages LEFT: there only the occurrence's own URL is never null.
    const notNull = slice.sort.notNull === true && (!scoped || slice.sort.key === 'url');
    const ranked = '(rk.url IS NOT NULL)';

    const keyset: string[] = [];
    const { cursor, direction } = slice;
    if (cursor) {
      const cmp = direction === 'ASC' ? '>' : '<';
      const id = param(cursor.id, 'bigint');
      const { pgType } = slice.sort;
      const after = () => `(${sortExpr}, ${rowId}) ${cmp} (${param(cursor.value, pgType)}, ${id})`;
      const within = notNull
        ? after()
        : cursor.value === null
          ? `(${sortExpr} IS NULL AND ${rowId} ${cmp} ${id})`
          : `(${sortExpr} IS NULL OR ${after()})`;
      if (rankingFirst && cursor.ranked !== null) {
        const wasRanked = param(cursor.ranked, 'boolean');
        keyset.push(`(${ranked} < ${wasRanked} OR (${ranked} = ${wasRanked} AND ${within}))`);
      } else keyset.push(within);
    }
    const order = [
      ...(rankingFirst ? [`${ranked} DESC`] : []),
      notNull ? `${sortExpr} ${direction}` : `${sortExpr} ${direction} NULLS LAST`,
      `${rowId} ${direction}`,
    ].join(', ');
    const columns = slice.columns.map((c, i) => `${expr(c)} AS c${i}`);
    const select = [
      `${rowId}::text AS id`,
      `${scoped ? 'o.url' : 'p.url'} AS url`,
      `${sortExpr} AS "sortValue"`,
      `${ranking ? ranked : slice.rankingFirst ? 'false' : 'NULL::boolean'} AS ranked`,
      scoped ? 'o.evidence' : 'NULL::jsonb AS evidence',
      ...columns,
    ].join(', ');
    const withClause = ranking ? `WITH ${RANKING_CTE} ` : '';
    const rowsSql = `${withClause}SELECT ${select} FROM ${from}${joins}
      WHERE ${[...conditions, ...keyset].join(' AND ')} ORDER BY ${order} LIMIT ${slice.first + 1}`;
    const counted = conditions.join(' AND ');
    // Every URL of a completed audit: counted by its stored page facets (written with the completion), not again.
    const everyUrl = !scoped && conditions.length === 1;
    // Every occurrence of an issue in a completed audit: counted with its completion (storePageCounts), not again.
    const everyOccurrence = scoped && conditions.length === 1;
    const [countSql, countArgs] = everyUrl
      ? [
          `SELECT COALESCE((SELECT sum((f->>3)::int)::int FROM audit a, jsonb_array_elements(a.page_facets) f
             WHERE a.id = $1 AND a.status = 'COMPLETED'),
             (SELECT count(*)::int FROM audit_page p WHERE p.audit_id = $1)) AS total`,
          [slice.auditId],
        ]
      : everyOccurrence
        ? [
            `SELECT COALESCE((SELECT i.occurrences FROM audit_issue i JOIN audit a ON a.id = i.audit_id
               AND a.status = 'COMPLETED' WHERE i.audit_id = $1 AND i.code = $2),
               (SELECT count(*)::int FROM issue_occurrence o WHERE o.audit_id = $1 AND o.code = $2)) AS total`,
            [slice.auditId, slice.checkCode],
          ]
        : [`${withClause}SELECT count(*)::int AS total FROM ${from}${joins} WHERE ${counted}`, countParams];
    const [raw, total] = await Promise.all([
      gridQuery<Record<string, unknown>>(db, run, rowsSql, params),
      slice.withTotal
        ? gridQuery<{ total: number }>(db, run, countSql, countArgs).then(([row]) => row.total)
        : Promise.resolve(null),
    ]);
    const rows = raw.map((r): UrlTableRow => ({
      id: r.id as string,
      url: r.url as string,
      sortValue: r.sortValue as UrlTableRow['sortValue'],
      ranked: r.ranked as boolean | null,
      evidence: r.evidence ?? null,
      values: slice.columns.map((_, i) => r[`c${i}`] ?? null),
    }));
    return { rows, total };
  }
}
