import type { EntityManager } from '@mikro-orm/postgresql';
import { jsonParam } from '../platform/db/sql-params.js';
import { nativeQuery, nativeTransaction, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import { ProjectEntity, type Project } from '../projects/index.js';
import type { CheckOverride, PageRenderingRecord } from '../seo/checks/index.js';
import type { AuditScores, ScoreBreakdown } from '../seo/scoring/index.js';
import {
  ACTIVE_STATUSES,
  AuditEntity,
  AuditIssueEntity,
  type Audit,
  type AuditCounts,
  type AuditIssue,
  type AuditPhase,
  type AuditStatus,
} from './audit.entity.js';
import type {
  AuditLinkRow,
  AuditPageDetails,
  AuditPageKind,
  AuditPageRow,
  CrawlReport,
  OccurrenceRecord,
  VitalsRecord,
} from './audit-engine.js';

/*
 * The audits module's data access: the only file of src/audits/ that speaks SQL or MikroORM. Its callers (the
 * service, the page service, the loaders, the job runner, the sweeper, the lifecycle) hold the rules and pass the
 * connection in: `db` (a NativeDb) for raw statements, `em` for entity calls, `tx` inside a nativeTransaction.
 * Raw statements are PostgreSQL's `$1, $2` through native-query.ts.
 */

/** One run of an audit: the attempt number `claim` gave it. */
export interface AuditAttempt {
  auditId: string;
  attempt: number;
}

/** An active audit as the sweeper read it. */
export interface SeenAudit {
  id: string;
  status: 'QUEUED' | 'RUNNING';
  attempts: number;
}

/** A sweeper candidate: an active audit as seen, with its job id. */
export interface SweepCandidate extends SeenAudit {
  job_id: string;
}

export interface NewAudit {
  id: string;
  projectId: string;
  maxPages: number;
  createdAt: Date;
}

/** A transition of audit-lifecycle.ts: the statuses it may leave from, and the one it reaches. */
export interface StatusTransition {
  from: readonly AuditStatus[];
  to: AuditStatus;
}

export interface OccurrenceRow {
  id: string;
  url: string;
  evidence: unknown;
}

/** One (code, URL) occurrence of a stored audit with its issue's fields (a CI gate's baseline). */
export interface BaselineOccurrenceRow {
  code: string;
  url: string;
  severity: 'CRITICAL' | 'WARNING' | 'NOTICE';
  title: string;
  category: string;
}

/** A crawled page a ranking URL may name, in its project's latest completed audit (rankingPageFacts). */
export interface RankingPageFactsRow {
  projectId: string;
  auditId: string;
  /** As crawled. */
  url: string;
  statusCode: number | null;
  indexable: boolean;
  /** One per issue code occurring on the URL. */
  issues: { code: string; title: string; severity: 'CRITICAL' | 'WARNING' | 'NOTICE' }[];
  /** Lab LCPs measured for the URL in the audit, newest first. */
  labLcp: { device: string; lcpMs: number }[];
}

/** An issue of a completed audit, as the job runner hands it over (its id already drawn). */
export interface IssueRow {
  id: string;
  code: string;
  title: string;
  severity: string;
  category: string;
  description: string;
  affectedPages: number;
  applicablePages: number;
}

/** A technical snapshot row (one per measured URL and device), its verdicts already decided. */
export interface SnapshotRow extends VitalsRecord {
  id: string;
  https: boolean;
  hsts: boolean;
  httpVersion: string | null;
  compression: string | null;
  robotsTxt: string;
  sitemap: string;
}

/** What a completed attempt writes on its audit row. */
export interface CompletedResult {
  scores: AuditScores;
  breakdown: ScoreBreakdown;
  pagesCrawled: number;
  pagesFailed: number;
  crawl: CrawlReport;
  /** URLs crawled, HTML pages, indexable pages and the caps' N of M (audit.counts). */
  counts: AuditCounts;
}

/** What a completed run writes beside its scores, in the transaction of its COMPLETED transition. */
export interface AuditResults {
  auditId: string;
  projectId: string;
  issues: IssueRow[];
  inlinks: ReadonlyMap<string, number>;
  snapshots: SnapshotRow[];
}

// ---- The pages explorer's listing ----

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
const STATUS_CLASS_OF_ROW = `CASE WHEN p.status_code IS NULL THEN 'FAILED' ${RANGED_CLASSES.map(
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
  p.indexable, p.inlinks, p.outlinks, p.error, p.kind`;

const OWNED = `EXISTS (SELECT 1 FROM audit a JOIN project pr ON pr.id = a.project_id WHERE a.id = $1
  AND pr.organization_id = $2)`;

/** LIKE's wildcards and its escape character, taken literally. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// ---- The job runner's writes ----

/**
 * Batch inserts write only while their attempt is current ($1 the audit, $3 the attempt). FOR SHARE makes a
 * concurrent claim (an UPDATE of the row) wait for this insert, so the new attempt's cleanup sees its rows.
 * A cancelled audit still takes its attempt's last batches: the pages crawled before the cancel are kept.
 */
const CURRENT_ATTEMPT = `EXISTS (SELECT 1 FROM audit WHERE id = $1 AND attempts = $3 AND status IN ('RUNNING',
  'CANCELLED') FOR SHARE)`;

/** The row as the Audit entity names it (plain, not managed by an EntityManager). */
const AUDIT_COLUMNS = `id, project_id AS "projectId", status, phase, job_id AS "jobId",
  overall_score AS "overallScore", meta_score AS "metaScore", content_score AS "contentScore",
  links_score AS "linksScore", technical_score AS "technicalScore", performance_score AS "performanceScore",
  pages_crawled AS "pagesCrawled", pages_queued AS "pagesQueued", pages_failed AS "pagesFailed",
  pages_discovered AS "pagesDiscovered", crawl_truncated AS "crawlTruncated", unchecked_links AS "uncheckedLinks",
  counts, max_pages AS "maxPages", attempts, error, created_at AS "createdAt", started_at AS "startedAt",
  completed_at AS "completedAt"`;

// ---- Scheduled audit runs (scheduled_audit_run; the schedules themselves are the project's columns) ----

export type ScheduledRunOutcome = 'STARTED' | 'SKIPPED';
export type ScheduledRunSkipReason = 'ALREADY_RUNNING' | 'PLAN_LIMIT' | 'NOT_ALLOWED';

/** What became of a slot: the audit it started, or why it started none (with the audit that was running, if any). */
export interface ScheduledRunDecision {
  outcome: ScheduledRunOutcome;
  reason: ScheduledRunSkipReason | null;
  message: string | null;
  auditId: string | null;
}

/** One row of scheduled_audit_run. */
export interface ScheduledRunRow extends ScheduledRunDecision {
  id: string;
  projectId: string;
  slotAt: Date;
  createdAt: Date;
}

/** The columns of a run (of the table named `t`, when given) in the shape ScheduledRunRow names. */
const runColumns = (t = '') => `${t}id, ${t}project_id AS "projectId", ${t}slot_at AS "slotAt", ${t}outcome,
  ${t}reason, ${t}message, ${t}audit_id AS "auditId", ${t}created_at AS "createdAt"`;
const RUN_COLUMNS = runColumns();

export class AuditRepository {
  // ---- Audits, read through the entity manager ----

  findById(em: EntityManager, auditId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { id: auditId });
  }

  /** The audit's project (the job runner reads its URL and settings). */
  findProject(em: EntityManager, projectId: string): Promise<Project | null> {
    return em.findOne(ProjectEntity, { id: projectId });
  }

  /** The project's queued or running audit (at most one: a partial unique index). */
  findActive(em: EntityManager, projectId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { projectId, status: { $in: ACTIVE_STATUSES } });
  }

  /** An audit of the project; `refresh` reads the row again rather than the identity map's copy. */
  findInProject(
    em: EntityManager,
    auditId: string,
    projectId: string,
    options: { refresh?: boolean } = {},
  ): Promise<Audit | null> {
    return options.refresh
      ? em.findOne(AuditEntity, { id: auditId, projectId }, { refresh: true })
      : em.findOne(AuditEntity, { id: auditId, projectId });
  }

  /** The project's latest audit, of any status. */
  findLatest(em: EntityManager, projectId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { projectId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  findByJobId(em: EntityManager, jobId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { jobId });
  }

  findByIds(em: EntityManager, auditIds: string[]): Promise<Audit[]> {
    return em.find(AuditEntity, { id: { $in: auditIds } });
  }

  /** Up to `limit` audits of the project, newest first (ids are UUIDv7), those older than `before` when given. */
  listForProject(em: EntityManager, projectId: string, limit: number, before: string | null): Promise<Audit[]> {
    const where = before ? { projectId, id: { $lt: before } } : { projectId };
    return em.find(AuditEntity, where, { orderBy: { id: 'desc' }, limit });
  }

  countForProject(em: EntityManager, projectId: string): Promise<number> {
    return em.count(AuditEntity, { projectId });
  }

  // ---- Issues and their occurrences ----

  /**
   * Every issue of an audit, as plain rows: a list the pages read whole (a stress audit has 2,000), which MikroORM's
   * hydration and change tracking made ~10x slower than the statement itself (nothing here is ever written back).
   */
  findIssues(db: NativeDb, auditId: string): Promise<AuditIssue[]> {
    return nativeQuery<AuditIssue>(
      db,
      'SELECT id, audit_id AS "auditId", code, title, severity, category, description, ' +
        'affected_pages AS "affectedPages", applicable_pages AS "applicablePages" FROM audit_issue WHERE audit_id = $1',
      [auditId],
    );
  }

  findIssue(em: EntityManager, auditId: string, issueId: string): Promise<AuditIssue | null> {
    return em.findOne(AuditIssueEntity, { id: issueId, auditId });
  }

  /** Up to `limit` occurrences of the audit's code after the row id `after` (a decimal string), in id order. */
  listOccurrences(db: NativeDb, auditId: string, code: string, after: string, limit: number): Promise<OccurrenceRow[]> {
    // ORDER BY names the table's column: a bare `id` would be the output column, `id::text`, and text order
    // ('100' < '98') disagrees with the numeric cursor once the ids of one issue cross a power of ten.
    return nativeQuery<OccurrenceRow>(
      db,
      'SELECT o.id::text AS id, o.url, o.evidence FROM issue_occurrence o WHERE o.audit_id = $1 ' +
        'AND o.code = $2 AND o.id > $3 ORDER BY o.id LIMIT $4',
      [auditId, code, after, limit],
    );
  }

  /**
   * Every (code, URL) the audit's issues occur on, once, with its issue's severity, title and category: the
   * baseline of `seo audit --baseline <audit-id>`. Read only; an index range scan on (audit_id, code, ...).
   */
  baselineOccurrences(db: NativeDb, auditId: string): Promise<BaselineOccurrenceRow[]> {
    return nativeQuery<BaselineOccurrenceRow>(
      db,
      `SELECT DISTINCT o.code, o.url, i.severity, i.title, i.category FROM issue_occurrence o
       JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
       WHERE o.audit_id = $1 ORDER BY o.code, o.url`,
      [auditId],
    );
  }

  // ---- Batch reads of the per-request loaders (one statement per field across a list) ----

  /** Per project, the overall score of its latest completed audit (projects without one are absent). */
  lastCompletedScores(
    db: NativeDb,
    projectIds: readonly string[],
  ): Promise<{ project_id: string; overall_score: number | null }[]> {
    return nativeQuery<{ project_id: string; overall_score: number | null }>(
      db,
      `SELECT DISTINCT ON (project_id) project_id, overall_score FROM audit
       WHERE project_id = ANY($1::uuid[]) AND status = 'COMPLETED' ORDER BY project_id, completed_at DESC`,
      [projectIds],
    );
  }

  /** Per project, the overall scores of its two latest completed audits, latest first. */
  lastTwoCompletedScores(
    db: NativeDb,
    projectIds: readonly string[],
  ): Promise<{ project_id: string; scores: (number | null)[] | null; overrides: (CheckOverride[] | null)[] | null }[]> {
    // Per project, the two latest completed audits, read from the (project_id, completed_at) partial index, with the
    // check settings each was scored with.
    return nativeQuery<{
      project_id: string;
      scores: (number | null)[] | null;
      overrides: (CheckOverride[] | null)[] | null;
    }>(
      db,
      `SELECT p.id AS project_id, l.scores, l.overrides FROM unnest($1::uuid[]) AS p(id)
       CROSS JOIN LATERAL (SELECT array_agg(overall_score ORDER BY completed_at DESC, id DESC) AS scores,
           array_agg(overrides ORDER BY completed_at DESC, id DESC) AS overrides FROM (
         SELECT overall_score, score_breakdown->'overrides' AS overrides, completed_at, id FROM audit
         WHERE project_id = p.id AND status = 'COMPLETED'
         ORDER BY completed_at DESC, id DESC LIMIT 2) last_two) l`,
      [projectIds],
    );
  }

  /**
   * Per completed audit, the check settings it was scored with and those of the project's completed audit before it
   * (`previous` null for the project's first; settings null: the catalog's).
   */
  settingsWithPrevious(
    db: NativeDb,
    auditIds: readonly string[],
  ): Promise<{ id: string; own: CheckOverride[] | null; previous: { overrides: CheckOverride[] | null } | null }[]> {
    return nativeQuery<{
      id: string;
      own: CheckOverride[] | null;
      previous: { overrides: CheckOverride[] | null } | null;
    }>(
      db,
      `SELECT a.id, a.score_breakdown->'overrides' AS own,
         (SELECT json_build_object('overrides', p.score_breakdown->'overrides') FROM audit p
          WHERE p.project_id = a.project_id AND p.status = 'COMPLETED'
            AND (p.completed_at, p.id) < (a.completed_at, a.id)
          ORDER BY p.completed_at DESC, p.id DESC LIMIT 1) AS previous
       FROM audit a WHERE a.id = ANY($1::uuid[]) AND a.status = 'COMPLETED'`,
      [auditIds],
    );
  }

  /** Per project, the id of its latest audit (of any status). */
  latestAuditIds(db: NativeDb, projectIds: readonly string[]): Promise<{ id: string; project_id: string }[]> {
    return nativeQuery<{ id: string; project_id: string }>(
      db,
      'SELECT DISTINCT ON (project_id) id, project_id FROM audit WHERE project_id = ANY($1::uuid[]) ' +
        'ORDER BY project_id, created_at DESC, id DESC',
      [projectIds],
    );
  }

  /** Per audit and severity, how many issues (severities without one are absent). */
  issueCountsBySeverity(
    db: NativeDb,
    auditIds: readonly string[],
  ): Promise<{ audit_id: string; severity: string; n: number }[]> {
    return nativeQuery<{ audit_id: string; severity: string; n: number }>(
      db,
      'SELECT audit_id, severity, count(*)::int AS n FROM audit_issue WHERE audit_id = ANY($1::uuid[]) ' +
        'GROUP BY audit_id, severity',
      [auditIds],
    );
  }

  /** How many audits have each status, over every organization (the deployment's `/metrics`). */
  countByStatus(db: NativeDb): Promise<{ status: string; n: number }[]> {
    return nativeQuery<{ status: string; n: number }>(
      db,
      'SELECT status, count(*)::int AS n FROM audit GROUP BY status',
    );
  }

  /** Why each audit scored what it did; null for audits not completed, or scored before breakdowns were kept. */
  scoreBreakdowns(
    db: NativeDb,
    auditIds: readonly string[],
  ): Promise<{ id: string; score_breakdown: ScoreBreakdown | null }[]> {
    return nativeQuery<{ id: string; score_breakdown: ScoreBreakdown | null }>(
      db,
      'SELECT id, score_breakdown FROM audit WHERE id = ANY($1::uuid[])',
      [auditIds],
    );
  }

  /** The latest completed audit of each of the projects, by project id (projects without one are absent). */
  async latestCompletedAudits(db: NativeDb, projectIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await nativeQuery<{ projectId: string; auditId: string }>(
      db,
      `SELECT w.id AS "projectId", a.id AS "auditId" FROM unnest($1::uuid[]) AS w(id)
       CROSS JOIN LATERAL (SELECT id FROM audit WHERE project_id = w.id AND status = 'COMPLETED'
                           ORDER BY completed_at DESC, id DESC LIMIT 1) a`,
      [projectIds],
    );
    return new Map(rows.map((r) => [r.projectId, r.auditId]));
  }

  /**
   * The pages of an audit crawled under the asked URLs, with their issues (one per code occurring on the URL) and
   * their lab LCPs, newest first. URLs that were not crawled are absent (`urls` has no duplicates). The audit is known
   * before the statement is planned. (Asked with (project, URL) pairs, the planner probed audit_page's trigram index
   * with every URL before it knew the audit: ~55 ms for the 7,000 URL variants of 1,000 keywords.) The URLs are a
   * joined list, not `url = ANY(...)`: planning ANY estimates each of the array's elements, ~18 ms for those 7,000.
   * They are sent as one text, a line each, not as an array: pg writes an array's ~560 KB element by element, quoting
   * each (3-5 ms of this process for those URLs), and PostgreSQL then parses that literal (2.5 ms). A crawled URL is
   * stored serialized, which never holds a line break: a URL that does names no crawled page and is left out.
   */
  rankingPageFacts(
    db: NativeDb,
    projectId: string,
    auditId: string,
    urls: readonly string[],
  ): Promise<RankingPageFactsRow[]> {
    return nativeQuery<RankingPageFactsRow>(
      db,
      `SELECT $1::uuid AS "projectId", p.audit_id AS "auditId", p.url, p.status_code AS "statusCode", p.indexable,
         COALESCE((SELECT json_agg(json_build_object('code', i.code, 'title', i.title, 'severity', i.severity)
                                   ORDER BY i.code)
                   FROM (SELECT DISTINCT o.code FROM issue_occurrence o
                         WHERE o.audit_id = p.audit_id AND o.url = p.url) c
                   JOIN audit_issue i ON i.audit_id = p.audit_id AND i.code = c.code), '[]'::json) AS issues,
         COALESCE((SELECT json_agg(json_build_object('device', s.device, 'lcpMs', s.lcp_ms)
                                   ORDER BY s.measured_at DESC)
                   FROM technical_snapshot s WHERE s.audit_id = p.audit_id AND s.url = p.url AND s.source = 'LAB'
                     AND s.lcp_ms IS NOT NULL), '[]'::json) AS "labLcp"
       FROM unnest(string_to_array($3, E'\\n')) AS w(url) JOIN audit_page p ON p.audit_id = $2 AND p.url = w.url`,
      [projectId, auditId, urls.filter((url) => !url.includes('\n')).join('\n')],
    );
  }

  // ---- Crawled pages ----

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
    const rowsSql = `SELECT ${PAGE_COLUMNS}, ${count}::int AS "issueCount"
      FROM ${from}
      WHERE ${[filtered, ...keyset].join(' AND ')} ORDER BY ${order} LIMIT ${first + 1}`;
    // A completed audit's total comes from its stored facets, unless a search narrows it (audits completed before
    // the facets were stored have none, and are counted).
    const facets = stored && !term ? audit.pageFacets : null;
    const counting = facets
      ? Promise.resolve(facetTotal(facets, classes, slice.kinds, slice.hasIssues ?? null))
      : nativeQuery<{ total: number }>(
          db,
          `SELECT count(*)::int AS total FROM ${from} WHERE ${filtered}`,
          countParams,
        ).then(([row]) => row.total);

    const [rows, total] = await Promise.all([nativeQuery<AuditPageRecord>(db, rowsSql, params), counting]);
    return { rows, owned: true, total };
  }

  /**
   * One crawled URL of an audit with its details and issue count; null when the audit is not the organization's or
   * the URL was not crawled in it.
   */
  async readPage(db: NativeDb, auditId: string, organizationId: string, url: string): Promise<AuditPageView | null> {
    const [row] = await nativeQuery<AuditPageView>(
      db,
      `SELECT ${PAGE_COLUMNS}, p.canonical, p.details, p.rendering, ${ISSUE_COUNT_OF_ROW} AS "issueCount"
       FROM audit_page p WHERE p.audit_id = $1 AND p.url = $3 AND ${OWNED}`,
      [auditId, organizationId, url],
    );
    return row ?? null;
  }

  /**
   * `first + 1` pages linking to a page, or linked from it (the extra one says there is a next page), one row each
   * with how many links there are between them, in the order of their first link after the cursor (that link's id),
   * each with the crawled page at its other end, and how many such pages there are in all (self links excluded: the
   * page's inlink and outlink counts). Index range scans on (audit_id, target_url, id) or (audit_id, source_url, id):
   * the cost follows the page's links, not the audit's.
   */
  async listLinks(db: NativeDb, slice: AuditLinkSlice): Promise<{ rows: AuditLinkRecord[]; total: number }> {
    const [self, other] = slice.direction === 'IN' ? ['target_url', 'source_url'] : ['source_url', 'target_url'];
    const params: unknown[] = [slice.auditId, slice.organizationId, slice.url];
    const after = slice.after === null ? '' : `HAVING min(l.id) > $${params.push(slice.after)}::bigint`;
    const otherColumn = slice.direction === 'IN' ? 'sourceUrl' : 'targetUrl';
    // One row per page at the other end (its first link's anchor and rel, and how many links): the page's inlink and
    // outlink counts are distinct pages too. A page's links to itself are neither.
    const [rows, [count]] = await Promise.all([
      nativeQuery<AuditLinkRecord>(
        db,
        `SELECT g.id::text AS id, g."sourceUrl", g."targetUrl", g.anchor, g.rel, g.internal, g."linkCount",
           o.status_code AS "otherStatus", o.title AS "otherTitle", (o.id IS NOT NULL) AS "otherCrawled"
         FROM (SELECT min(l.id) AS id, l.source_url AS "sourceUrl", l.target_url AS "targetUrl",
                 (array_agg(l.anchor ORDER BY l.id))[1] AS anchor, (array_agg(l.rel ORDER BY l.id))[1] AS rel,
                 bool_or(l.internal) AS internal, count(*)::int AS "linkCount"
               FROM audit_link l
               WHERE l.audit_id = $1 AND l.${self} = $3 AND l.source_url <> l.target_url AND ${OWNED}
               GROUP BY l.${other}, l.${self} ${after}
               ORDER BY min(l.id) LIMIT ${slice.first + 1}) g
         LEFT JOIN audit_page o ON o.audit_id = $1 AND o.url = g."${otherColumn}"
         ORDER BY g.id`,
        params,
      ),
      nativeQuery<{ total: number }>(
        db,
        `SELECT count(DISTINCT l.${other})::int AS total FROM audit_link l
         WHERE l.audit_id = $1 AND l.${self} = $3 AND l.source_url <> l.target_url AND ${OWNED}`,
        params.slice(0, 3),
      ),
    ]);
    return { rows, total: count.total };
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

  // ---- The job runner: one attempt's rows ----

  /** The audit's status and attempt number (the running job watches them), or null when the row is gone. */
  async readStatus(db: NativeDb, auditId: string): Promise<{ status: string; attempts: number } | null> {
    const [row] = await nativeQuery<{ status: string; attempts: number }>(
      db,
      'SELECT status, attempts FROM audit WHERE id = $1',
      [auditId],
    );
    return row ?? null;
  }

  /** The audit's attempt number, or null when the row is gone. */
  async readAttempts(db: NativeDb, auditId: string): Promise<number | null> {
    const [row] = await nativeQuery<{ attempts: number }>(db, 'SELECT attempts FROM audit WHERE id = $1', [auditId]);
    return row ? row.attempts : null;
  }

  /** The attempt's progress counters (no status or phase change: a later attempt's row is left alone). */
  async writeProgress(
    db: NativeDb,
    run: AuditAttempt,
    progress: { pagesCrawled: number; pagesQueued: number },
  ): Promise<void> {
    await nativeQuery(db, 'UPDATE audit SET pages_crawled = $3, pages_queued = $4 WHERE id = $1 AND attempts = $2', [
      run.auditId,
      run.attempt,
      progress.pagesCrawled,
      progress.pagesQueued,
    ]);
  }

  /**
   * Attempt n is alive: its heartbeat, written only while the audit is RUNNING at that attempt (a stale worker
   * cannot vouch for a later attempt, nor keep a finished audit "alive"). False when the guard matched no row.
   */
  async writeHeartbeat(db: NativeDb, run: AuditAttempt): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET heartbeat_at = now() WHERE id = $1 AND attempts = $2 AND status = 'RUNNING' RETURNING id`,
      [run.auditId, run.attempt],
    );
    return rows.length > 0;
  }

  /**
   * VACUUM (ANALYZE) of the tables an audit's results fill (not in a transaction: VACUUM cannot run in one).
   * SKIP_LOCKED: a table another vacuum holds is left to it, never waited for.
   */
  async vacuumResults(db: NativeDb): Promise<void> {
    await nativeQuery(db, 'VACUUM (ANALYZE, SKIP_LOCKED) issue_occurrence, audit_page');
  }

  /** A cancelled run's audit reports the pages it keeps (progress was last written up to a second before). */
  async settleCancelledCounts(db: NativeDb, run: AuditAttempt): Promise<void> {
    await nativeQuery(
      db,
      `UPDATE audit SET pages_crawled = (SELECT count(*) FROM audit_page WHERE audit_id = $1),
         pages_failed = (SELECT count(*) FROM audit_page WHERE audit_id = $1 AND error IS NOT NULL), pages_queued = 0
       WHERE id = $1 AND attempts = $2 AND status = 'CANCELLED'`,
      [run.auditId, run.attempt],
    );
  }

  /** What an earlier attempt wrote (pages, occurrences, issues, snapshots), one table at a time. */
  async deleteResults(db: NativeDb, auditId: string): Promise<void> {
    for (const table of ['issue_occurrence', 'audit_issue', 'audit_link', 'audit_page', 'technical_snapshot']) {
      await nativeQuery(db, `DELETE FROM ${table} WHERE audit_id = $1`, [auditId]);
    }
  }

  // Batches go straight to node-postgres with server-side parameters: the ORM connection would inline the
  // JSON document into the SQL text, escaping it character by character.
  async insertPages(db: NativeDb, run: AuditAttempt, rows: AuditPageRow[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      db,
      `INSERT INTO audit_page (audit_id, url, final_url, status_code, kind, depth, title, meta_description,
        canonical, indexable,
         word_count, response_time_ms, bytes, content_hash, outlinks, error, details, rendering)
       SELECT $1, r."url", r."finalUrl", r."statusCode", r."kind", r."depth", r."title", r."metaDescription",
        r."canonical", r."indexable",
         r."wordCount", r."responseTimeMs", r."bytes", r."contentHash", r."outlinks", r."error", r."details",
         r."rendering"
       FROM jsonb_to_recordset($2::jsonb) AS r("url" text, "finalUrl" text, "statusCode" int, "kind" text,
         "depth" int, "title" text, "metaDescription" text, "canonical" text, "indexable" bool, "wordCount" int,
         "responseTimeMs" int, "bytes" int, "contentHash" text, "outlinks" int, "error" text, "details" jsonb,
         "rendering" jsonb)
       WHERE ${CURRENT_ATTEMPT}
       ON CONFLICT (audit_id, url) DO NOTHING`,
      [run.auditId, jsonParam(rows), run.attempt],
    );
  }

  /** The link graph, column arrays unnested: a batch of 5,000 links is one statement with five parameters. */
  async insertLinks(db: NativeDb, run: AuditAttempt, rows: AuditLinkRow[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      db,
      `INSERT INTO audit_link (audit_id, source_url, target_url, anchor, rel, internal)
       SELECT $1, l.source, l.target, l.anchor, l.rel, l.internal
       FROM unnest($2::text[], $4::text[], $5::text[], $6::text[], $7::bool[])
         AS l(source, target, anchor, rel, internal)
       WHERE ${CURRENT_ATTEMPT}`,
      [
        run.auditId,
        rows.map((r) => r.sourceUrl),
        run.attempt,
        rows.map((r) => r.targetUrl),
        rows.map((r) => r.anchor),
        rows.map((r) => r.rel),
        rows.map((r) => r.internal),
      ],
    );
  }

  async insertOccurrences(db: NativeDb, run: AuditAttempt, rows: OccurrenceRecord[]): Promise<void> {
    if (!rows.length) return;
    await nativeQuery(
      db,
      `INSERT INTO issue_occurrence (audit_id, code, url, evidence)
       SELECT $1, r.code, r.url, r.evidence FROM jsonb_to_recordset($2::jsonb) AS r(code text, url text, evidence jsonb)
       WHERE ${CURRENT_ATTEMPT}`,
      [run.auditId, jsonParam(rows), run.attempt],
    );
  }

  /**
   * One transaction: `transition` first (the lifecycle's COMPLETED transition, which locks the audit row until
   * commit), then, only when it happened, the results. Returns whether the transition happened.
   */
  saveCompleted(db: NativeDb, transition: (tx: NativeTx) => Promise<boolean>, results: AuditResults): Promise<boolean> {
    return nativeTransaction(db, async (tx) => {
      const completed = await transition(tx);
      if (completed) await this.insertResults(tx, results);
      return completed;
    });
  }

  /**
   * Each page's inlinks and issue count (its occurrences, all streamed before the completion), in one pass over the
   * pages that have either; part of the completion (insertResults). The pages explorer sorts and filters a completed
   * audit's pages on the stored count.
   */
  async storePageCounts(tx: NativeTx, auditId: string, inlinks: ReadonlyMap<string, number>): Promise<void> {
    // Two arrays, not one JSON object: at 100,000 pages that object and its text cost the worker ~25 MB more.
    const urls: string[] = [];
    const counts: number[] = [];
    for (const [url, n] of inlinks) {
      if (n <= 0) continue;
      urls.push(url);
      counts.push(n);
    }
    await tx.query(
      `WITH u AS (SELECT url, n FROM unnest($1::text[], $3::int[]) AS u(url, n)),
            c AS (SELECT url, count(*)::int AS n FROM issue_occurrence WHERE audit_id = $2 GROUP BY url),
            x AS (SELECT url, u.n AS inlinks, c.n AS issues FROM u FULL JOIN c USING (url))
       UPDATE audit_page p SET inlinks = COALESCE(x.inlinks, p.inlinks), issue_count = COALESCE(x.issues, 0)
       FROM x WHERE p.audit_id = $2 AND p.url = x.url`,
      [urls, auditId, counts],
    );
    await tx.query(
      `UPDATE audit SET page_facets = COALESCE((
         SELECT jsonb_agg(jsonb_build_array(f.status_class, f.kind, f.has_issues, f.pages))
         FROM (SELECT ${STATUS_CLASS_OF_ROW} AS status_class, p.kind, p.issue_count > 0 AS has_issues,
                      count(*)::int AS pages
               FROM audit_page p WHERE p.audit_id = $1 GROUP BY 1, 2, 3) f), '[]'::jsonb)
       WHERE id = $1`,
      [auditId],
    );
  }

  private async insertResults(tx: NativeTx, results: AuditResults): Promise<void> {
    const { auditId, projectId, issues } = results;
    if (issues.length) {
      await tx.query(
        `INSERT INTO audit_issue (id, audit_id, code, title, severity, category, description,
          affected_pages, applicable_pages)
         SELECT r.id, $1::uuid, r.code, r.title, r.severity, r.category, r.description,
          r."affectedPages", r."applicablePages"
         FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, code text, title text, severity text,
          category text, description text,
           "affectedPages" int, "applicablePages" int)`,
        [auditId, jsonParam(issues)],
      );
    }
    await this.storePageCounts(tx, auditId, results.inlinks);
    for (const v of results.snapshots) {
      await tx.query(
        `INSERT INTO technical_snapshot (id, project_id, audit_id, url, measured_at, device, source,
          lcp_ms, cls, inp_ms, tbt_ms, fcp_ms, ttfb_ms,
           performance_score, https, hsts, http_version, compression, robots_txt, sitemap)
         VALUES ($1, $2, $3, $4, now(), $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
        [
          v.id,
          projectId,
          auditId,
          v.url,
          v.device,
          v.source,
          v.lcpMs,
          v.cls,
          v.inpMs,
          v.tbtMs,
          v.fcpMs,
          v.ttfbMs,
          v.performanceScore,
          v.https,
          v.hsts,
          v.httpVersion,
          v.compression,
          v.robotsTxt,
          v.sitemap,
        ],
      );
    }
  }

  // ---- The sweeper ----

  /**
   * Active audits whose job started (or was created) more than `graceMs` ago, oldest first, at most 200; a RUNNING
   * audit whose heartbeat is younger than `heartbeatGraceMs` is not one (its worker is alive).
   */
  findSweepCandidates(db: NativeDb, graceMs: number, heartbeatGraceMs: number): Promise<SweepCandidate[]> {
    return nativeQuery<SweepCandidate>(
      db,
      `SELECT id, job_id, status, attempts FROM audit
       WHERE status IN ('QUEUED', 'RUNNING') AND coalesce(started_at,
        created_at) < now() - make_interval(secs => $1::float / 1000)
         AND (status <> 'RUNNING' OR heartbeat_at IS NULL
           OR heartbeat_at < now() - make_interval(secs => $2::float / 1000))
       ORDER BY created_at LIMIT 200`,
      [graceMs, heartbeatGraceMs],
    );
  }

  // ---- Status writes: called only by audit-lifecycle.ts ----
  // Each statement is guarded on the statuses the lifecycle passes (`transition.from`) and writes the one it
  // names (`transition.to`); the transition table, and which transition applies when, live in audit-lifecycle.ts.
  // Leaving RUNNING clears the phase (a database constraint: a phase only while RUNNING). A test refuses a status
  // write anywhere else, and a call of these methods from any other file.

  /** (none) -> QUEUED. Null when the project already has a queued or running audit (the partial unique index). */
  async insertQueued(db: NativeDb, audit: NewAudit, transition: StatusTransition): Promise<Audit | null> {
    // The conflict target names the partial index's predicate as it is written: PostgreSQL infers the index from it.
    const [row] = await nativeQuery<Audit>(
      db,
      `INSERT INTO audit (id, project_id, status, job_id, pages_crawled, pages_queued, pages_failed,
        max_pages, attempts,
         created_at)
       VALUES ($1, $2, $6, $3, 0, 0, 0, $4, 0, $5)
       ON CONFLICT (project_id) WHERE status IN ('QUEUED', 'RUNNING') DO NOTHING
       RETURNING ${AUDIT_COLUMNS}`,
      [audit.id, audit.projectId, audit.id, audit.maxPages, audit.createdAt, transition.to],
    );
    return row ?? null;
  }

  /** A new attempt (phase CRAWLING, counters reset): its number, or null when the audit was not in `from`. */
  async updateClaimed(db: NativeDb, auditId: string, transition: StatusTransition): Promise<AuditAttempt | null> {
    const [row] = await nativeQuery<{ attempts: number }>(
      db,
      `UPDATE audit SET status = $3, phase = 'CRAWLING', started_at = now(), attempts = attempts + 1, error = NULL,
         pages_crawled = 0, pages_failed = 0, pages_queued = 0
       WHERE id = $1 AND status = ANY($2::text[]) RETURNING attempts`,
      [auditId, transition.from, transition.to],
    );
    return row ? { auditId, attempt: row.attempts } : null;
  }

  /** Another phase of attempt n, the status unchanged (`transition.from` is the status that has phases). */
  async updatePhase(
    db: NativeDb,
    run: AuditAttempt,
    transition: StatusTransition,
    phase: AuditPhase,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET phase = $3 WHERE id = $1 AND attempts = $2 AND status = ANY($4::text[]) RETURNING id`,
      [run.auditId, run.attempt, phase, transition.from],
    );
    return rows.length > 0;
  }

  /** Attempt n's scores and final counters, inside the results transaction (the row stays locked until commit). */
  async updateCompleted(
    tx: NativeTx,
    run: AuditAttempt,
    transition: StatusTransition,
    result: CompletedResult,
  ): Promise<boolean> {
    const s = result.scores;
    const rows = await tx.query(
      `UPDATE audit SET status = $12, phase = NULL, overall_score = $3, meta_score = $4, content_score = $5,
         links_score = $6, technical_score = $7, performance_score = $8, pages_crawled = $9, pages_failed = $10,
         pages_queued = 0, completed_at = now(), error = NULL, score_breakdown = $13::jsonb,
         pages_discovered = $14, crawl_truncated = $15, unchecked_links = $16::jsonb, counts = $17::jsonb
       WHERE id = $1 AND attempts = $2 AND status = ANY($11::text[]) RETURNING id`,
      [
        run.auditId,
        run.attempt,
        s.overall,
        s.meta,
        s.content,
        s.links,
        s.technical,
        s.performance,
        result.pagesCrawled,
        result.pagesFailed,
        transition.from,
        transition.to,
        JSON.stringify(result.breakdown),
        result.crawl.pagesDiscovered,
        result.crawl.truncated,
        JSON.stringify(result.crawl.uncheckedLinks),
        JSON.stringify(result.counts),
      ],
    );
    if (!rows.length) return false;
    // The completion's outbox: its alerts are owed from this commit on, whatever becomes of the alert queue's job
    // (src/alerts claims the row once; its workers reconcile the queue with the pending ones).
    await tx.query('INSERT INTO alert_evaluation (audit_id) VALUES ($1) ON CONFLICT (audit_id) DO NOTHING', [
      run.auditId,
    ]);
    return true;
  }

  /** Attempt n's end with an error and the pages it reached. */
  async updateAttemptFailed(
    db: NativeDb,
    run: AuditAttempt,
    transition: StatusTransition,
    message: string,
    pages: { pagesCrawled: number; pagesFailed: number },
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $7, phase = NULL, error = $3, completed_at = now(), pages_crawled = $4,
         pages_failed = $5, pages_queued = 0
       WHERE id = $1 AND attempts = $2 AND status = ANY($6::text[]) RETURNING id`,
      [run.auditId, run.attempt, message, pages.pagesCrawled, pages.pagesFailed, transition.from, transition.to],
    );
    return rows.length > 0;
  }

  /** The audit's end with an error, whichever attempt. */
  async updateFailed(db: NativeDb, auditId: string, transition: StatusTransition, message: string): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $4, phase = NULL, error = $2, completed_at = now()
       WHERE id = $1 AND status = ANY($3::text[]) RETURNING id`,
      [auditId, message, transition.from, transition.to],
    );
    return rows.length > 0;
  }

  /** Back to the queue; `note` replaces the error. */
  async updateRequeued(
    db: NativeDb,
    auditId: string,
    transition: StatusTransition,
    note: string | null,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $4, phase = NULL, error = $2 WHERE id = $1 AND status = ANY($3::text[]) RETURNING id`,
      [auditId, note, transition.from, transition.to],
    );
    return rows.length > 0;
  }

  /** The project's audits in `from` (or only the one named, when it is): their ids and job ids. */
  updateCancelled(
    db: NativeDb,
    target: { projectId: string; auditId: string | null },
    transition: StatusTransition,
    reason: string,
  ): Promise<{ id: string; jobId: string }[]> {
    return nativeQuery<{ id: string; jobId: string }>(
      db,
      `UPDATE audit SET status = $5, phase = NULL, completed_at = now(), error = $3
       WHERE project_id = $1 AND ($2::uuid IS NULL OR id = $2) AND status = ANY($4::text[])
       RETURNING id, job_id AS "jobId"`,
      [target.projectId, target.auditId, reason, transition.from, transition.to],
    );
  }

  /**
   * Back to the queue, if the audit is still as seen (status and attempt). With a note the error says why; without
   * one the error is left as it was.
   */
  async updateSeenRequeued(
    db: NativeDb,
    seen: SeenAudit,
    transition: StatusTransition,
    note?: string,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      note === undefined
        ? `UPDATE audit SET status = $5, phase = NULL
           WHERE id = $1 AND status = $2 AND attempts = $3 AND status = ANY($4::text[]) RETURNING id`
        : `UPDATE audit SET status = $5, phase = NULL, error = $6
           WHERE id = $1 AND status = $2 AND attempts = $3 AND status = ANY($4::text[]) RETURNING id`,
      note === undefined
        ? [seen.id, seen.status, seen.attempts, transition.from, transition.to]
        : [seen.id, seen.status, seen.attempts, transition.from, transition.to, note],
    );
    return rows.length > 0;
  }

  /** The audit's end with the reason, if it is still as seen (status and attempt). */
  async updateSeenFailed(
    db: NativeDb,
    seen: SeenAudit,
    transition: StatusTransition,
    reason: string,
  ): Promise<boolean> {
    const rows = await nativeQuery(
      db,
      `UPDATE audit SET status = $5, phase = NULL, error = $6, completed_at = now()
       WHERE id = $1 AND status = $2 AND attempts = $3 AND status = ANY($4::text[]) RETURNING id`,
      [seen.id, seen.status, seen.attempts, transition.from, transition.to, reason],
    );
    return rows.length > 0;
  }

  // ---- End of status writes ----

  // ---- Scheduled audit runs ----

  /**
   * Claims a slot and records what `decide` made of it, in one transaction. The INSERT of the (project, slot) row is
   * the claim: a second claimant of the same slot waits on the unique index until the first commits, then inserts
   * nothing and gets null (`decide` is not called). Should `decide` throw, or the process die, the transaction rolls
   * back and the slot is free again for the job's retry. Null too when the project was deleted meanwhile.
   */
  claimScheduledSlot(
    db: NativeDb,
    run: { id: string; projectId: string; slotAt: Date },
    decide: () => Promise<ScheduledRunDecision>,
  ): Promise<ScheduledRunRow | null> {
    return nativeTransaction(db, async (tx) => {
      let claimed: { id: string }[];
      try {
        claimed = await tx.query<{ id: string }>(
          `INSERT INTO scheduled_audit_run (id, project_id, slot_at, outcome) VALUES ($1, $2, $3, 'STARTED')
           ON CONFLICT (project_id, slot_at) DO NOTHING RETURNING id`,
          [run.id, run.projectId, run.slotAt],
        );
      } catch (err) {
        if ((err as { code?: string }).code === '23503') return null;
        throw err;
      }
      if (claimed.length === 0) return null;
      const decision = await decide();
      const [row] = await tx.query<ScheduledRunRow>(
        `UPDATE scheduled_audit_run SET outcome = $2, reason = $3, message = $4, audit_id = $5 WHERE id = $1
         RETURNING ${RUN_COLUMNS}`,
        [run.id, decision.outcome, decision.reason, decision.message, decision.auditId],
      );
      return row;
    });
  }

  /** Whether a slot of the project was claimed (a catch-up is not needed). */
  async hasScheduledRun(db: NativeDb, projectId: string, slotAt: Date): Promise<boolean> {
    const rows = await nativeQuery<{ one: number }>(
      db,
      'SELECT 1 AS one FROM scheduled_audit_run WHERE project_id = $1 AND slot_at = $2',
      [projectId, slotAt],
    );
    return rows.length > 0;
  }

  /** The latest `limit` runs of each project, latest first (one statement for a list of projects). */
  latestScheduledRuns(db: NativeDb, projectIds: readonly string[], limit: number): Promise<ScheduledRunRow[]> {
    return nativeQuery<ScheduledRunRow>(
      db,
      `SELECT ${runColumns('r.')} FROM unnest($1::uuid[]) AS p(id)
        CROSS JOIN LATERAL (SELECT * FROM scheduled_audit_run s WHERE s.project_id = p.id
          ORDER BY s.slot_at DESC LIMIT $2) r
        ORDER BY r.project_id, r.slot_at DESC`,
      [projectIds, limit],
    );
  }
}

/** Audits by status, over every organization (the API's `/metrics`; the repository holds no state). */
export const countAuditsByStatus = (db: NativeDb): Promise<{ status: string; n: number }[]> =>
  new AuditRepository().countByStatus(db);
