import { boundedQuery, nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { PageRenderingRecord } from '../seo/checks/index.js';
import type { AuditPageDetails, AuditPageKind, VitalsRecord } from './audit-engine.js';
import type { AuditLinkPosition } from './audit-page-rows.js';
import { inlinksOfSql, pageInlinksSql, STORED_INLINKS } from './inlinks.js';

/*
 * The pages explorer's reads: an audit's crawled pages (filtered, sorted, keyset-paged), one page's view, its links,
 * occurrences and vitals. Every read checks that the audit is the organization's.
 */

export type AuditPageOrder = 'URL' | 'STATUS' | 'TITLE' | 'DEPTH' | 'WORD_COUNT' | 'RESPONSE_TIME' | 'ISSUES';
export type SortDirection = 'ASC' | 'DESC';
export type StatusClass = 'SUCCESS' | 'REDIRECT' | 'CLIENT_ERROR' | 'SERVER_ERROR' | 'FAILED';

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
  /** null for pages of audits crawled before kinds were recorded. */
  kind: AuditPageKind | null;
}

/** One crawled URL with everything the page view shows of it. */
export interface AuditPageView extends AuditPageRecord {
  canonical: string | null;
  details: AuditPageDetails | null;
  /** Browser rendering mode's raw-versus-rendered record; null in html mode. */
  rendering: PageRenderingRecord | null;
}

/** One link of the graph, with what the audit knows of the page at its other end. */
export interface AuditLinkRecord {
  id: string;
  sourceUrl: string;
  targetUrl: string;
  anchor: string;
  rel: string | null;
  internal: boolean;
  /** The other end's status code and title when it was crawled (null when not, or when the fetch failed). */
  otherStatus: number | null;
  otherTitle: string | null;
  otherCrawled: boolean;
  /** Links between the two pages (a page often links to another more than once: menu, body, footer). */
  linkCount: number;
  /** Where the first link sits on the linking page (null for audits crawled before positions were recorded). */
  position: AuditLinkPosition | null;
  /** Where the links sit, each position once, in the order of their first link. */
  positions: AuditLinkPosition[];
}

/** Vitals an audit measured for a URL, with when. */
export type MeasuredVitals = VitalsRecord & { measuredAt: Date };

export interface PageOccurrenceRecord {
  id: string;
  code: string;
  evidence: Record<string, unknown> | null;
  issueId: string | null;
}

/** One page of a page's inlinks (links whose target it is) or outlinks (links it holds). */
export interface AuditLinkSlice {
  auditId: string;
  organizationId: string;
  url: string;
  direction: 'IN' | 'OUT';
  first: number;
  /** The last link id of the previous page, or null for the first page. */
  after: string | null;
  /** Only links at this position on the linking page (rows, counts and total), or null for all. */
  position: AuditLinkPosition | null;
}

export interface SortKey {
  /** The column in the page rows (`p`), or the issue count computed beside them. */
  column: string;
  /** The row property that carries the value into the cursor. */
  field: keyof AuditPageRecord;
  kind: 'text' | 'int';
  nullable: boolean;
}

export const SORT_KEYS: Record<AuditPageOrder, SortKey> = {
  URL: { column: 'p.url', field: 'url', kind: 'text', nullable: false },
  STATUS: { column: 'p.status_code', field: 'statusCode', kind: 'int', nullable: true },
  TITLE: { column: 'p.title', field: 'title', kind: 'text', nullable: true },
  DEPTH: { column: 'p.depth', field: 'depth', kind: 'int', nullable: false },
  WORD_COUNT: { column: 'p.word_count', field: 'wordCount', kind: 'int', nullable: false },
  RESPONSE_TIME: { column: 'p.response_time_ms', field: 'responseTimeMs', kind: 'int', nullable: true },
  ISSUES: { column: 'p.issue_count', field: 'issueCount', kind: 'int', nullable: false },
};

/** One page of the listing, as the page service validated it. */
export interface AuditPageSlice {
  auditId: string;
  organizationId: string;
  first: number;
  orderBy: AuditPageOrder;
  direction: SortDirection;
  /** The last row of the previous page (its sort value and row id), or null for the first page. */
  cursor: { value: string | number | null; id: string } | null;
  statusClasses: readonly StatusClass[];
  /** Any of these kinds (empty: every kind). */
  kinds: readonly AuditPageKind[];
  hasIssues: boolean | null;
  /** The search term, trimmed ('' for none); matched literally in URLs and titles. */
  term: string;
}

/** The status codes of each class; FAILED is no answer (null). A code in none of them is in no class. */
const STATUS_CLASS_RANGES: Record<Exclude<StatusClass, 'FAILED'>, readonly [number, number]> = {
  SUCCESS: [200, 299],
  REDIRECT: [300, 399],
  CLIENT_ERROR: [400, 499],
  SERVER_ERROR: [500, 599],
};
const RANGED_CLASSES = Object.entries(STATUS_CLASS_RANGES) as [StatusClass, readonly [number, number]][];

const STATUS_CLASS_SQL: Record<StatusClass, string> = {
  ...(Object.fromEntries(
    RANGED_CLASSES.map(([name, [low, high]]) => [name, `p.status_code BETWEEN ${low} AND ${high}`]),
  ) as Record<Exclude<StatusClass, 'FAILED'>, string>),
  FAILED: 'p.status_code IS NULL',
};

/** A page row's status class (null: in none), by the same ranges as the filter. */
export const STATUS_CLASS_OF_ROW = `CASE WHEN p.status_code IS NULL THEN 'FAILED' ${RANGED_CLASSES.map(
  ([name, [low, high]]) => `WHEN p.status_code BETWEEN ${low} AND ${high} THEN '${name}'`,
).join(' ')} END`;

/**
 * A completed audit's pages counted by what the explorer filters on, stored with the completion (storePageCounts):
 * [status class, kind, has issues, pages]. The explorer's total for any filter without a search is a sum of these,
 * where counting the audit's rows took 190-300 ms at 100,000 pages (`npm run bench -- audit-100k`, a seq scan).
 */
type PageFacet = [StatusClass | null, AuditPageKind | null, boolean, number];

function facetTotal(
  facets: readonly PageFacet[],
  classes: readonly StatusClass[],
  kinds: readonly AuditPageKind[],
  hasIssues: boolean | null,
): number {
  let total = 0;
  for (const [statusClass, kind, issues, pages] of facets) {
    if (classes.length && (statusClass === null || !classes.includes(statusClass))) continue;
    if (kinds.length && (kind === null || !kinds.includes(kind))) continue;
    if (hasIssues !== null && issues !== hasIssues) continue;
    total += pages;
  }
  return total;
}

/**
 * Pages with their issue counts computed from the occurrences, for sorting or filtering on them while the audit is
 * not COMPLETED (one grouped pass over its occurrences). A completed audit's pages carry theirs in `issue_count`,
 * written with the completion (insertResults), so the listing reads the column and its index instead.
 */
const COUNTED_PAGES = `(SELECT ap.*, COALESCE(c.n, 0) AS live_issue_count FROM audit_page ap
  LEFT JOIN (SELECT url, count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1 GROUP BY url) c ON c.url = ap.url
  WHERE ap.audit_id = $1) p`;
/** Otherwise only the returned page of rows is counted, by index lookups on (audit_id, url). */
const ISSUE_COUNT_OF_ROW = '(SELECT count(*) FROM issue_occurrence o WHERE o.audit_id = $1 AND o.url = p.url)::int';

const PAGE_COLUMNS = `p.id::text AS id, p.url, p.final_url AS "finalUrl", p.status_code AS "statusCode",
  p.depth, p.title,
  p.meta_description AS "metaDescription", p.word_count AS "wordCount", p.response_time_ms AS "responseTimeMs", p.bytes,
  p.indexable, p.outlinks, p.error, p.kind`;

const OWNED = `EXISTS (SELECT 1 FROM audit a JOIN project pr ON pr.id = a.project_id WHERE a.id = $1
  AND pr.organization_id = $2)`;

/** LIKE's wildcards and its escape character, taken literally. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The rows' columns: the first link of each pair (`f`), its pair's aggregates (`g`), the page at the other end. */
const LINK_COLUMNS = `f.id::text AS id, f.source_url AS "sourceUrl", f.target_url AS "targetUrl", f.anchor, f.rel,
  g.internal, g."linkCount", f.position, g.positions,
  o.status_code AS "otherStatus", o.title AS "otherTitle", (o.id IS NOT NULL) AS "otherCrawled"`;

/** Each position once, in the order of its first link, from the pair's links `k`. */
const POSITIONS_OF_K = `ARRAY(SELECT x.p FROM unnest(array_agg(k.position ORDER BY k.id)) WITH ORDINALITY AS x(p, n)
  WHERE x.p IS NOT NULL GROUP BY x.p ORDER BY min(x.n))`;

/**
 * A page's inlinks ($3 the target; `at(alias)` the position filter on $4; `cursor` the last first-link id): the
 * first links of their pair read in id order from (audit_id, target_url, id), each checked to be its pair's first
 * by a probe of the linking page's links, so a page of rows costs its rows, not the page's 100,000 inlinks (grouping
 * them all first took seconds). The probes name the target as $3, so the planner sees how many links it has and
 * reads them from the linking page's (audit_id, source_url, id) range when it has many.
 */
function inlinkRows(at: (alias: string) => string, cursor: string | null, first: number): string {
  return `SELECT ${LINK_COLUMNS}
    FROM (SELECT l.id, l.source_url, l.target_url, l.anchor, l.rel, l.position
          FROM audit_link l
          WHERE l.audit_id = $1 AND l.target_url = $3 AND l.source_url <> $3 ${at('l')}
            ${cursor === null ? '' : `AND l.id > ${cursor}`}
            AND NOT EXISTS (SELECT 1 FROM audit_link e WHERE e.audit_id = $1 AND e.target_url = $3
                              AND e.source_url = l.source_url AND e.id < l.id ${at('e')})
            AND ${OWNED}
          ORDER BY l.id LIMIT ${first + 1}) f
    CROSS JOIN LATERAL (SELECT bool_or(k.internal) AS internal, count(*)::int AS "linkCount",
                          ${POSITIONS_OF_K} AS positions
                        FROM audit_link k
                        WHERE k.audit_id = $1 AND k.target_url = $3 AND k.source_url = f.source_url ${at('k')}) g
    LEFT JOIN audit_page o ON o.audit_id = $1 AND o.url = f.source_url
    ORDER BY f.id`;
}

/**
 * A page's outlinks ($3 the source): its own links, a range of (audit_id, source_url, id) as long as the page's
 * links, grouped by target (probing each target instead could read a menu target's 100,000 inlinks).
 */
function outlinkRows(at: (alias: string) => string, cursor: string | null, first: number): string {
  return `SELECT ${LINK_COLUMNS}
    FROM (SELECT min(k.id) AS id, k.target_url, bool_or(k.internal) AS internal, count(*)::int AS "linkCount",
            ${POSITIONS_OF_K} AS positions
          FROM audit_link k
          WHERE k.audit_id = $1 AND k.source_url = $3 AND k.target_url <> $3 ${at('k')} AND ${OWNED}
          GROUP BY k.target_url ${cursor === null ? '' : `HAVING min(k.id) > ${cursor}`}
          ORDER BY min(k.id) LIMIT ${first + 1}) g
    JOIN audit_link f ON f.id = g.id
    LEFT JOIN audit_page o ON o.audit_id = $1 AND o.url = f.target_url
    ORDER BY f.id`;
}

/** The pages list is a grid read: the URL table's statement time limit (boundedQuery). */
const GRID_READ = { cls: 'grid' } as const;

export class AuditPagesRepository {
  /**
   * One page of an audit's crawled pages (`first + 1` rows: the extra one says there is a next page), with the
   * total of the filter and whether the audit belongs to the organization (no row is returned when it does not).
   */
  async listPages(
    db: NativeDb,
    slice: AuditPageSlice,
  ): Promise<{ rows: AuditPageRecord[]; owned: boolean; total: number }> {
    const { auditId, organizationId, first, orderBy, direction, cursor, term } = slice;
    const [audit] = await nativeQuery<{ status: string; pageFacets: PageFacet[] | null }>(
      db,
      `SELECT a.status, a.page_facets AS "pageFacets" FROM audit a JOIN project pr ON pr.id = a.project_id
       WHERE a.id = $1 AND pr.organization_id = $2`,
      [auditId, organizationId],
    );
    if (!audit) return { rows: [], owned: false, total: 0 };
    // A completed audit's counts are stored and indexed; a running (or cancelled, failed) one's are counted live.
    const stored = audit.status === 'COMPLETED';
    const issueCount = stored ? 'p.issue_count' : 'p.live_issue_count';
    const key = orderBy === 'ISSUES' ? { ...SORT_KEYS.ISSUES, column: issueCount } : SORT_KEYS[orderBy];
    // $1 the audit; filters and the keyset add theirs.
    const params: unknown[] = [auditId];
    const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
    const conditions: string[] = ['p.audit_id = $1'];
    const classes = [...new Set(slice.statusClasses)];
    if (classes.length) conditions.push(`(${classes.map((c) => STATUS_CLASS_SQL[c]).join(' OR ')})`);
    if (slice.kinds.length) conditions.push(`p.kind = ANY(${param([...new Set(slice.kinds)], 'text[]')})`);
    if (slice.hasIssues != null) conditions.push(slice.hasIssues ? `${issueCount} > 0` : `${issueCount} = 0`);
    if (term) {
      const pattern = param(`%${escapeLike(term)}%`, 'text');
      conditions.push(`(p.url ILIKE ${pattern} ESCAPE '\\' OR p.title ILIKE ${pattern} ESCAPE '\\')`);
    }
    const live = !stored && (orderBy === 'ISSUES' || slice.hasIssues != null);
    const from = live ? COUNTED_PAGES : 'audit_page p';
    const filtered = conditions.join(' AND ');
    // The count takes the filter's parameters only, never the cursor's.
    const countParams = [...params];

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
    // Missing values last in both directions. A key that is never null orders without NULLS LAST, so that a DESC
    // listing is a backward scan of its (audit_id, key, id) index (DESC NULLS LAST would not match the index's order).
    const order = `${key.column} ${direction}${key.nullable ? ' NULLS LAST' : ''}, p.id ${direction}`;
    const count = stored ? 'p.issue_count' : live ? 'p.live_issue_count' : ISSUE_COUNT_OF_ROW;
    // Inlinks as every surface counts them (inlinks.ts): stored with a completed audit, counted for the rows otherwise.
    const inlinks = stored ? `p.${STORED_INLINKS.ALL}` : inlinksOfSql('p.url');
    const rowsSql = `SELECT ${PAGE_COLUMNS}, ${inlinks} AS inlinks, ${count}::int AS "issueCount"
      FROM ${from}
      WHERE ${[filtered, ...keyset].join(' AND ')} ORDER BY ${order} LIMIT ${first + 1}`;
    // A completed audit's total comes from its stored facets, unless a search narrows it (audits completed before
    // the facets were stored have none, and are counted).
    const facets = stored && !term ? audit.pageFacets : null;
    const counting = facets
      ? Promise.resolve(facetTotal(facets, classes, slice.kinds, slice.hasIssues ?? null))
      : boundedQuery<{ total: number }>(
          db,
          GRID_READ,
          `SELECT count(*)::int AS total FROM ${from} WHERE ${filtered}`,
          countParams,
        ).then(([row]) => row.total);

    // A search term scans every page's URL and title: the page and its count are bounded like the URL table's.
    const [rows, total] = await Promise.all([boundedQuery<AuditPageRecord>(db, GRID_READ, rowsSql, params), counting]);
    return { rows, owned: true, total };
  }

  /**
   * One crawled URL of an audit with its details and issue count; null when the audit is not the organization's or
   * the URL was not crawled in it.
   */
  async readPage(db: NativeDb, auditId: string, organizationId: string, url: string): Promise<AuditPageView | null> {
    const [row] = await nativeQuery<AuditPageView>(
      db,
      `SELECT ${PAGE_COLUMNS}, ${pageInlinksSql()} AS inlinks, p.canonical, p.details, p.rendering,
         ${ISSUE_COUNT_OF_ROW} AS "issueCount"
       FROM audit_page p WHERE p.audit_id = $1 AND p.url = $3 AND ${OWNED}`,
      [auditId, organizationId, url],
    );
    return row ?? null;
  }

  /**
   * `first + 1` pages linking to a page, or linked from it (the extra one says there is a next page), one row each
   * with how many links there are between them, in the order of their first link after the cursor (that link's id),
   * each with the crawled page at its other end, and how many such pages there are in all (self links excluded: the
   * page's inlink and outlink counts). A completed audit's inlinks total is stored with the page (STORED_INLINKS);
   * any other total is counted.
   */
  async listLinks(db: NativeDb, slice: AuditLinkSlice): Promise<{ rows: AuditLinkRecord[]; total: number }> {
    const [self, other] = slice.direction === 'IN' ? ['target_url', 'source_url'] : ['source_url', 'target_url'];
    const params: unknown[] = [slice.auditId, slice.organizationId, slice.url];
    const at = (alias: string) => (slice.position === null ? '' : `AND ${alias}.position = $4`);
    if (slice.position !== null) params.push(slice.position);
    const countParams = [...params];
    const cursor = slice.after === null ? null : `$${params.push(slice.after)}::bigint`;
    const rows = nativeQuery<AuditLinkRecord>(
      db,
      slice.direction === 'IN' ? inlinkRows(at, cursor, slice.first) : outlinkRows(at, cursor, slice.first),
      params,
    );
    const total = (async () => {
      const stored = slice.direction === 'IN' ? await this.storedInlinks(db, slice) : null;
      if (stored !== null) return stored;
      const position = slice.position === null ? undefined : '$4';
      const [count] = await nativeQuery<{ total: number }>(
        db,
        slice.direction === 'IN'
          ? `SELECT ${inlinksOfSql('$3', position)} AS total WHERE ${OWNED}`
          : `SELECT count(DISTINCT l.${other})::int AS total FROM audit_link l
             WHERE l.audit_id = $1 AND l.${self} = $3 AND l.source_url <> l.target_url ${at('l')} AND ${OWNED}`,
        countParams,
      );
      // Not the organization's audit: no rows and no total.
      if (!count) return 0;
      return count.total;
    })();
    const [list, count] = await Promise.all([rows, total]);
    return { rows: list, total: count };
  }

  /**
   * The page's inlinks total as its completed audit stored it (with the position filter, or without), or null: the
   * audit is not COMPLETED, or not the organization's, or the URL is not one of its pages.
   */
  private async storedInlinks(
    db: NativeDb,
    slice: Pick<AuditLinkSlice, 'auditId' | 'organizationId' | 'url' | 'position'>,
  ): Promise<number | null> {
    const column = STORED_INLINKS[slice.position ?? 'ALL'];
    const [row] = await nativeQuery<{ total: number }>(
      db,
      `SELECT p.${column} AS total FROM audit_page p
       JOIN audit a ON a.id = p.audit_id AND a.status = 'COMPLETED'
       JOIN project pr ON pr.id = a.project_id AND pr.organization_id = $2
       WHERE p.audit_id = $1 AND p.url = $3`,
      [slice.auditId, slice.organizationId, slice.url],
    );
    return row?.total ?? null;
  }

  /**
   * The anchor text of the first link from each source to each target (evidence tables name the link): index range
   * scans on (audit_id, source_url, id).
   */
  linkAnchors(
    db: NativeDb,
    auditId: string,
    sources: readonly string[],
    targets: readonly string[],
  ): Promise<{ sourceUrl: string; targetUrl: string; anchor: string }[]> {
    if (!sources.length || !targets.length) return Promise.resolve([]);
    return nativeQuery(
      db,
      `SELECT DISTINCT ON (source_url, target_url) source_url AS "sourceUrl", target_url AS "targetUrl", anchor
       FROM audit_link WHERE audit_id = $1 AND source_url = ANY($2::text[]) AND target_url = ANY($3::text[])
       ORDER BY source_url, target_url, id`,
      [auditId, [...new Set(sources)], [...new Set(targets)]],
    );
  }

  /**
   * The issue occurrences recorded for one URL of an audit, with their issue (id, null while the audit runs: issues
   * are written when it completes), by code (the page view's issues).
   */
  pageOccurrences(db: NativeDb, auditId: string, url: string, limit: number): Promise<PageOccurrenceRecord[]> {
    return nativeQuery<PageOccurrenceRecord>(
      db,
      `SELECT o.id::text AS id, o.code, o.evidence, i.id AS "issueId" FROM issue_occurrence o
       LEFT JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
       WHERE o.audit_id = $1 AND o.url = $2 ORDER BY o.code, o.id LIMIT ${limit}`,
      [auditId, url],
    );
  }

  /** Lab or HTTP-only vitals an audit recorded for one URL (the page view's "lab vitals when measured"). */
  pageVitals(db: NativeDb, auditId: string, url: string): Promise<MeasuredVitals[]> {
    return nativeQuery<MeasuredVitals>(
      db,
      `SELECT url, measured_at AS "measuredAt", source, device, lcp_ms AS "lcpMs", cls, inp_ms AS "inpMs",
         tbt_ms AS "tbtMs", fcp_ms AS "fcpMs",
         ttfb_ms AS "ttfbMs", performance_score AS "performanceScore"
       FROM technical_snapshot WHERE audit_id = $1 AND url = $2 AND source <> 'FIELD' ORDER BY measured_at`,
      [auditId, url],
    );
  }
}
