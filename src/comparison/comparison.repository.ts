import type { EntityManager } from '@mikro-orm/postgresql';
import { nativeQuery, nativeTransaction, type NativeDb, type NativeTx } from '../platform/db/native-query.js';
import { notFound } from '../platform/errors.js';
import { AuditEntity, type Audit } from '../audits/index.js';
import { CHECK_CATALOG, CHECK_PREREQUISITES } from '../seo/checks/index.js';
import type { ScoreBreakdown } from '../seo/scoring/index.js';

/*
 * The comparison module's data access: the only file of src/comparison/ that speaks SQL. What differs between two
 * completed audits is computed once per pair, by set operations over indexed columns (occurrences by (audit_id,
 * code, url), pages by (audit_id, url)), and stored as the pair's digest (migration 0021): completed audits do not
 * change, so every later read of the pair is an index range of its stored changes. Only one URL's view and the
 * persisting occurrences (a walk of the head's index with a probe of the base per row) still read the audits.
 */

/**
 * What became of a (code, URL) occurrence between the two audits:
 * - NEW: the head found it, the base ran the check and did not;
 * - FIXED: the base found it; the head ran the check on the same page, still crawled, answering and indexable (if it
 *   was), and did not find it;
 * - GONE: the base found it and its page went with it: no longer crawled, 4xx/5xx or no answer, or no longer indexable;
 * - NOT_CHECKED: the base found it and the head did not run the check (disabled, or no longer in the catalog) or the
 *   check no longer applies (the element it judges is now missing: CHECK_PREREQUISITES);
 * - NEWLY_CHECKED: the head found it with a check the base did not run;
 * - PERSISTING: both found it.
 * A site fact (a check defined with `siteFact`: compression, caching headers, http, insecure cookies) is one fact of
 * the site, compared per site and never per URL: one row per code, at the first URL (in URL order) that carries it in
 * the audit the row shows (the head's, else the base's). PERSISTING when both audits found it, whatever URLs carry it
 * (a page whose text shrank below the compression threshold is no fix); FIXED only when the head ran the check,
 * found it nowhere and crawled a page that answered (else GONE: nothing was left to judge); NEW, NOT_CHECKED and
 * NEWLY_CHECKED as for any check (the prerequisites of CHECK_PREREQUISITES are per page, and do not apply to it).
 */
export type IssueChange = 'NEW' | 'FIXED' | 'GONE' | 'NOT_CHECKED' | 'NEWLY_CHECKED' | 'PERSISTING';
/** The changes stored in a pair's digest (persisting ones are read from the audits). */
export const STORED_ISSUE_CHANGES = ['NEW', 'FIXED', 'GONE', 'NOT_CHECKED', 'NEWLY_CHECKED'] as const;
export type PageChange = 'ADDED' | 'REMOVED' | 'STATUS_CHANGED' | 'INDEXABILITY_CHANGED';

/** The two audits compared: `base` the earlier state, `head` the later one. */
export interface AuditPair {
  base: string;
  head: string;
}

/**
 * One check code across both audits: how many of its rows are new, fixed, gone, not checked, newly checked and
 * persisting. A page check has a row per URL; a site fact (`siteFact`) one row for the site, so its counts are 0 or 1.
 */
export interface CodeChangeRow {
  code: string;
  title: string;
  severity: string;
  category: string;
  /** A fact of the site (the catalog's `siteFact`): compared once per site, not URL by URL (IssueChange). */
  siteFact: boolean;
  newUrls: number;
  fixedUrls: number;
  goneUrls: number;
  notCheckedUrls: number;
  newlyCheckedUrls: number;
  persistingUrls: number;
}

/** One check code of one URL, and whether the URL gained, lost or kept it. */
export interface UrlIssueChangeRow {
  code: string;
  change: IssueChange;
  title: string;
  severity: string;
  category: string;
  /** A site fact (CodeChangeRow.siteFact): its change is the site's, not this URL's. */
  siteFact: boolean;
}

/** One (code, URL) occurrence of a change, with its issue's title, severity and category. */
export interface IssueChangeRecord {
  code: string;
  url: string;
  title: string;
  severity: string;
  category: string;
}

/** A crawled URL as one audit saw it. */
export interface PageSide {
  statusCode: number | null;
  indexable: boolean;
  kind: string | null;
  title: string | null;
}

export interface PageChangeRecord {
  url: string;
  before: PageSide | null;
  after: PageSide | null;
}

export interface PageChangeTotals {
  /** Changed URLs, each once whatever its changes (the rows of the changed URLs list). */
  changedUrls: number;
  added: number;
  removed: number;
  statusChanged: number;
  indexabilityChanged: number;
}

/** Page regressions for alerts: a URL that answered 200 now fails, or was indexable and is no longer. */
export interface PageRegressionRecord {
  url: string;
  before: { statusCode: number | null; indexable: boolean };
  after: { statusCode: number | null; indexable: boolean };
}

export interface CompletedAuditRef {
  id: string;
  completedAt: Date;
}

/** The codes the catalog has: an occurrence of any other code is "not checked" once the head no longer runs it. */
const CATALOG_CODES: string[] = CHECK_CATALOG.map((c) => c.code);
/**
 * A check that no longer applies because the element it judges went missing (CHECK_PREREQUISITES): its vanished
 * occurrence is not checked, not fixed, where the head reports the element missing on the same URL.
 */
const DEPENDENT_CODES: string[] = Object.keys(CHECK_PREREQUISITES);
const PREREQUISITE_CODES: string[] = DEPENDENT_CODES.map((code) => CHECK_PREREQUISITES[code]);

/** The site facts of the catalog: compared once per site (IssueChange), never URL by URL. */
const SITE_FACT_CODES: string[] = CHECK_CATALOG.filter((c) => c.siteFact).map((c) => c.code);

/** Up to this many rows, a list of one change probes the other audit row by row (see issueChanges). */
const PROBE_LIMIT = 1_000;

/** Occurrences of one audit with their (code, url) once: a site-level check may list a URL twice. */
const occurrencesOf = (audit: string) => `SELECT DISTINCT code, url FROM issue_occurrence WHERE audit_id = ${audit}`;

/**
 * The (code, url) occurrences of one audit that are compared URL by URL: all but the site facts (`siteFacts`: the
 * parameter holding SITE_FACT_CODES).
 */
const pageOccurrencesOf = (audit: string, siteFacts: string) =>
  `${occurrencesOf(audit)} AND code <> ALL(${siteFacts}::text[])`;

/** The first URL (in URL order) carrying the site fact `code` in `audit`; NULL when the audit did not find it. */
const firstUrlOf = (audit: string, code: string) =>
  `(SELECT f.url FROM issue_occurrence f WHERE f.audit_id = ${audit} AND f.code = ${code} ORDER BY f.url LIMIT 1)`;

/**
 * One row per site fact either audit found (`siteFacts`: the parameter holding SITE_FACT_CODES): its code, the first
 * URL carrying it in the base and in the head (NULL where that audit did not find it). Two index probes per code.
 */
const siteFactsOf = (base: string, head: string, siteFacts: string) =>
  `SELECT s.code, s.base_url, s.head_url FROM (SELECT c.code, ${firstUrlOf(base, 'c.code')} AS base_url,
     ${firstUrlOf(head, 'c.code')} AS head_url FROM unnest(${siteFacts}::text[]) AS c(code)) s
   WHERE s.base_url IS NOT NULL OR s.head_url IS NOT NULL`;

/** The change of a page row pair, in SQL: which of the four a FULL JOIN of b and h shows. */
const PAGE_CHANGE_SQL: Record<PageChange, string> = {
  ADDED: 'b.url IS NULL',
  REMOVED: 'h.url IS NULL',
  STATUS_CHANGED: 'b.url IS NOT NULL AND h.url IS NOT NULL AND b.status_code IS DISTINCT FROM h.status_code',
  INDEXABILITY_CHANGED: 'b.url IS NOT NULL AND h.url IS NOT NULL AND b.indexable <> h.indexable',
};

/**
 * Any of the given changes (any of the four when none is given), as one parenthesised condition: on a FULL JOIN of
 * the two audits' pages (PAGE_CHANGE_SQL), or on a stored change row (STORED_CHANGE_SQL).
 */
const changeFilter = (changes: PageChange[], sql: Record<PageChange, string> = PAGE_CHANGE_SQL) =>
  `(${(changes.length ? changes : (Object.keys(sql) as PageChange[])).map((c) => sql[c]).join(' OR ')})`;

const side = (t: 'b' | 'h') =>
  `CASE WHEN ${t}.url IS NULL THEN NULL ELSE json_build_object('statusCode', ${t}.status_code, 'indexable', ` +
  `${t}.indexable, 'kind', ${t}.kind, 'title', ${t}.title) END`;

/** A stored digest's per-code counts, with the issue's title, severity and category (the head's, else the base's). */
const DIGEST_CODES = `SELECT c.code, c."newUrls", c."fixedUrls", c."goneUrls", c."notCheckedUrls",
    c."newlyCheckedUrls", c."persistingUrls",
    COALESCE(hi.title, bi.title, c.code) AS title, COALESCE(hi.severity, bi.severity) AS severity,
    COALESCE(hi.category, bi.category) AS category, c.code = ANY($4::text[]) AS "siteFact"
  FROM comparison_digest d
  CROSS JOIN LATERAL jsonb_to_recordset(d.codes) AS c(code text, "newUrls" int, "fixedUrls" int, "goneUrls" int,
    "notCheckedUrls" int, "newlyCheckedUrls" int, "persistingUrls" int)
  LEFT JOIN audit_issue hi ON hi.audit_id = $2 AND hi.code = c.code
  LEFT JOIN audit_issue bi ON bi.audit_id = $1 AND bi.code = c.code
  WHERE d.base_id = $1 AND d.head_id = $2 AND ($3::text IS NULL OR c.code = $3)`;

/** The page change columns of a stored row, in SQL: which of the four it shows. */
const STORED_CHANGE_SQL: Record<PageChange, string> = {
  ADDED: 'added',
  REMOVED: 'removed',
  STATUS_CHANGED: 'status_changed',
  INDEXABILITY_CHANGED: 'indexability_changed',
};

/**
 * Computes and stores the digest of a pair, in one transaction (under a lock of the pair, so that two first reads
 * compute it once): the occurrences new and fixed, with the per-code counts, in one FULL JOIN of the two audits'
 * (code, url) sets; the changed pages, with the totals, in one FULL JOIN of their pages. Refused for an audit that is
 * not COMPLETED: only a finished audit's rows are final.
 */
async function storeDigest(tx: NativeTx, pair: AuditPair): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1::text || $2::text, 20261125))', [
    pair.base,
    pair.head,
  ]);
  const [done] = await tx.query('SELECT 1 FROM comparison_digest WHERE base_id = $1 AND head_id = $2', [
    pair.base,
    pair.head,
  ]);
  if (done) return;
  const audits = await tx.query<{ status: string; final: boolean }>(
    'SELECT status, external_links_final AS final FROM audit WHERE id IN ($1, $2)',
    [pair.base, pair.head],
  );
  // Gone since the comparison found them: their project was deleted meanwhile.
  if (audits.length !== new Set([pair.base, pair.head]).size) throw notFound('Audit');
  if (audits.some((a) => a.status !== 'COMPLETED' || !a.final))
    throw new Error(`comparison digest: audits ${pair.base} and ${pair.head} are not both completed and final`);
  await tx.query(`INSERT INTO comparison_digest (base_id, head_id, codes, pages) VALUES ($1, $2, '[]', '{}')`, [
    pair.base,
    pair.head,
  ]);
  // The checks each audit did not run: disabled in the settings it was scored with (score_breakdown.overrides).
  const disabled = await tx.query<{ id: string; codes: string[] }>(
    `SELECT a.id, COALESCE(array_agg(o->>'code') FILTER (WHERE o IS NOT NULL), '{}') AS codes FROM audit a
     LEFT JOIN LATERAL jsonb_array_elements(COALESCE(a.score_breakdown->'overrides', '[]'::jsonb)) o
       ON (o->>'enabled')::boolean = false
     WHERE a.id IN ($1, $2) GROUP BY a.id`,
    [pair.base, pair.head],
  );
  const off = (id: string) => disabled.find((r) => r.id === id)?.codes ?? [];
  // Page checks by (code, url); each site fact once, at its first URL in the head (else in the base).
  await tx.query(
    `WITH j AS (SELECT code, url, b.url IS NULL AS only_head, h.url IS NULL AS only_base, false AS site_fact
                FROM (${pageOccurrencesOf('$1', '$8')}) b FULL JOIN (${pageOccurrencesOf('$2', '$8')}) h
                  USING (code, url)
                UNION ALL
                SELECT code, COALESCE(head_url, base_url), base_url IS NULL, head_url IS NULL, true
                FROM (${siteFactsOf('$1', '$2', '$8')}) f),
          changed AS (
            SELECT j.code, j.url, CASE
                WHEN j.only_head THEN CASE WHEN j.code = ANY($4::text[]) THEN 'NEWLY_CHECKED' ELSE 'NEW' END
                WHEN j.code = ANY($3::text[]) OR NOT j.code = ANY($5::text[])
                  OR (NOT j.site_fact
                      AND EXISTS (SELECT 1 FROM unnest($6::text[], $7::text[]) AS d(code, needs)
                                  JOIN issue_occurrence m ON m.audit_id = $2 AND m.code = d.needs AND m.url = j.url
                                  WHERE d.code = j.code)) THEN 'NOT_CHECKED'
                WHEN j.site_fact THEN CASE
                  WHEN EXISTS (SELECT 1 FROM audit_page a WHERE a.audit_id = $2 AND a.status_code < 400) THEN 'FIXED'
                  ELSE 'GONE' END
                WHEN (bp.url IS NOT NULL AND hp.url IS NULL)
                  OR (hp.url IS NOT NULL AND (hp.status_code IS NULL OR hp.status_code >= 400))
                  OR (bp.indexable AND hp.url IS NOT NULL AND NOT hp.indexable) THEN 'GONE'
                ELSE 'FIXED' END AS change
            FROM j
            LEFT JOIN audit_page bp ON bp.audit_id = $1 AND bp.url = j.url
            LEFT JOIN audit_page hp ON hp.audit_id = $2 AND hp.url = j.url
            WHERE j.only_head OR j.only_base),
          changes AS (INSERT INTO comparison_issue_change (base_id, head_id, change, code, url)
                      SELECT $1, $2, change, code, url FROM changed),
          per_code AS (SELECT j.code, count(*) FILTER (WHERE c.change = 'NEW')::int AS "newUrls",
                      count(*) FILTER (WHERE c.change = 'FIXED')::int AS "fixedUrls",
                      count(*) FILTER (WHERE c.change = 'GONE')::int AS "goneUrls",
                      count(*) FILTER (WHERE c.change = 'NOT_CHECKED')::int AS "notCheckedUrls",
                      count(*) FILTER (WHERE c.change = 'NEWLY_CHECKED')::int AS "newlyCheckedUrls",
                      count(*) FILTER (WHERE NOT j.only_head AND NOT j.only_base)::int AS "persistingUrls"
                    FROM j LEFT JOIN changed c USING (code, url) GROUP BY j.code)
     UPDATE comparison_digest
     SET codes = (SELECT COALESCE(jsonb_agg(to_jsonb(c) ORDER BY c.code), '[]') FROM per_code c)
     WHERE base_id = $1 AND head_id = $2`,
    [
      pair.base,
      pair.head,
      off(pair.head),
      off(pair.base),
      CATALOG_CODES,
      DEPENDENT_CODES,
      PREREQUISITE_CODES,
      SITE_FACT_CODES,
    ],
  );
  await tx.query(
    `WITH changes AS (
       INSERT INTO comparison_page_change (base_id, head_id, url, before, after, added, removed, status_changed,
         indexability_changed)
       SELECT $1, $2, COALESCE(h.url, b.url), ${side('b')}, ${side('h')}, ${PAGE_CHANGE_SQL.ADDED},
         ${PAGE_CHANGE_SQL.REMOVED}, ${PAGE_CHANGE_SQL.STATUS_CHANGED}, ${PAGE_CHANGE_SQL.INDEXABILITY_CHANGED}
       FROM (SELECT url, status_code, indexable, kind, title FROM audit_page WHERE audit_id = $1) b
       FULL JOIN (SELECT url, status_code, indexable, kind, title FROM audit_page WHERE audit_id = $2) h USING (url)
       WHERE ${changeFilter([])}
       RETURNING added, removed, status_changed, indexability_changed)
     UPDATE comparison_digest SET pages = (
       SELECT jsonb_build_object('changedUrls', count(*), 'added', count(*) FILTER (WHERE added),
         'removed', count(*) FILTER (WHERE removed),
         'statusChanged', count(*) FILTER (WHERE status_changed),
         'indexabilityChanged', count(*) FILTER (WHERE indexability_changed)) FROM changes)
     WHERE base_id = $1 AND head_id = $2`,
    [pair.base, pair.head],
  );
}

/** What became of a URL's extracted value: changed (a value in both, different), appeared, disappeared. */
export type ExtractionChange = 'CHANGED' | 'APPEARED' | 'DISAPPEARED';

/** A custom extractor that either audit ran (audit.extractors), with its pages' value changes. */
export interface ExtractionChangeRow {
  key: string;
  name: string;
  kind: string;
  inBase: boolean;
  inHead: boolean;
  changed: number;
  appeared: number;
  disappeared: number;
}

/** One URL crawled by both audits whose value of an extractor changed, appeared or disappeared (values as text). */
export interface ExtractionChangeRecord {
  url: string;
  change: ExtractionChange;
  before: string | null;
  after: string | null;
}

/** Whether an audit_page.extraction entry holds a value: a search's yes/no, a timeout, or a non-empty list. */
const hasValue = (v: string) => `(${v} IS NOT NULL AND ${v} <> '[]'::jsonb)`;
/** The change of an extraction entry between base (bv) and head (hv), in SQL; NULL when it did not change. */
const EXTRACTION_CHANGE_SQL = `CASE
    WHEN ${hasValue('bv')} AND ${hasValue('hv')} THEN CASE WHEN bv <> hv THEN 'CHANGED' END
    WHEN ${hasValue('hv')} THEN 'APPEARED'
    WHEN ${hasValue('bv')} THEN 'DISAPPEARED' END`;
/** An extraction entry as the URL table shows it: values joined by " | ", yes/no, (timed out); NULL for none. */
const extractionText = (v: string) => `CASE jsonb_typeof(${v})
    WHEN 'array' THEN (SELECT string_agg(x, ' | ') FROM jsonb_array_elements_text(${v}) x)
    WHEN 'boolean' THEN CASE WHEN (${v})::boolean THEN 'yes' ELSE 'no' END
    WHEN 'string' THEN '(timed out)' END`;
/**
 * Per URL crawled by both audits (matched by URL, as the page changes are) and extractor key ($3: one key; or the
 * keys of the `keys` CTE), its base value bv and head value hv. Pages without any extraction on either side are
 * left out before the keys multiply them.
 */
const extractionPairs = (keys: string) => `SELECT k.key, b.url, b.extraction -> k.key AS bv, h.extraction -> k.key AS hv
    FROM audit_page b
    JOIN audit_page h ON h.audit_id = $2 AND h.url = b.url
    CROSS JOIN (${keys}) k
    WHERE b.audit_id = $1 AND (b.extraction IS NOT NULL OR h.extraction IS NOT NULL)`;

export class ComparisonRepository {
  findAudit(em: EntityManager, auditId: string): Promise<Audit | null> {
    return em.findOne(AuditEntity, { id: auditId });
  }

  /**
   * The project's completed audits whose external verdicts are in (final), newest first: up to `limit`, those
   * completed before `before` when given.
   */
  completedAudits(db: NativeDb, projectId: string, limit: number, before: Date | null): Promise<CompletedAuditRef[]> {
    return nativeQuery<CompletedAuditRef>(
      db,
      `SELECT id, completed_at AS "completedAt" FROM audit WHERE project_id = $1 AND status = 'COMPLETED'
       AND external_links_final AND ($2::timestamptz IS NULL OR completed_at < $2)
       ORDER BY completed_at DESC, id DESC LIMIT $3`,
      [projectId, before, limit],
    );
  }

  /**
   * Makes sure the pair's digest is stored (computing it on its first read); the reads below call it first. A pair
   * read before is one primary-key probe.
   */
  async ensureDigest(db: NativeDb, pair: AuditPair): Promise<void> {
    const [stored] = await nativeQuery(db, 'SELECT 1 FROM comparison_digest WHERE base_id = $1 AND head_id = $2', [
      pair.base,
      pair.head,
    ]);
    if (!stored) await nativeTransaction(db, (tx) => storeDigest(tx, pair));
  }

  /**
   * Per check code present in either audit: its rows that are new (head only), fixed (base only), persisting (both)
   * and so on, from the digest (a site fact: one row for the site); the title, severity and category are the head's
   * issue row, or the base's for a code the head no longer has.
   */
  async codeChanges(db: NativeDb, pair: AuditPair, code: string | null = null): Promise<CodeChangeRow[]> {
    await this.ensureDigest(db, pair);
    return nativeQuery<CodeChangeRow>(db, DIGEST_CODES, [pair.base, pair.head, code, SITE_FACT_CODES]);
  }

  /**
   * Up to `limit` occurrences of one change, in (code, url) order after the keyset `after`. New and fixed ones are
   * the digest's (a range of its primary key); persisting ones walk the head's index and keep those the base has too
   * (an index lookup each).
   */
  async issueChanges(
    db: NativeDb,
    pair: AuditPair,
    change: IssueChange,
    filter: { code: string | null; after: { code: string; url: string } | null; limit: number },
  ): Promise<IssueChangeRecord[]> {
    const params = [pair.base, pair.head, filter.code, filter.after?.code ?? null, filter.after?.url ?? null];
    // A list page (a few dozen rows) of persisting ones probes the base per row: OFFSET 0 keeps the subquery a probe,
    // so the LIMIT stops the walk early; a CSV piece of thousands of rows is faster as a hash join, so it keeps that.
    const probe = filter.limit <= PROBE_LIMIT ? ' OFFSET 0' : '';
    // Persisting site facts: one row each that both audits found, at the head's first URL carrying it.
    const changed =
      change === 'PERSISTING'
        ? `SELECT code, url FROM (
             (SELECT DISTINCT o.code, o.url FROM issue_occurrence o
               WHERE o.audit_id = $2 AND ($3::text IS NULL OR o.code = $3) AND o.code <> ALL($7::text[])
                 AND ($4::text IS NULL OR (o.code, o.url) > ($4::text, $5::text))
                 AND EXISTS (SELECT 1 FROM issue_occurrence x WHERE x.audit_id = $1 AND x.code = o.code
                             AND x.url = o.url${probe})
               ORDER BY o.code, o.url LIMIT $6)
             UNION ALL
             SELECT f.code, f.head_url FROM (${siteFactsOf('$1', '$2', '$7')}) f
               WHERE f.base_url IS NOT NULL AND f.head_url IS NOT NULL AND ($3::text IS NULL OR f.code = $3)
                 AND ($4::text IS NULL OR (f.code, f.head_url) > ($4::text, $5::text))) p
           ORDER BY code, url LIMIT $6`
        : `SELECT c.code, c.url FROM comparison_issue_change c
             WHERE c.base_id = $1 AND c.head_id = $2 AND c.change = $7 AND ($3::text IS NULL OR c.code = $3)
               AND ($4::text IS NULL OR (c.code, c.url) > ($4::text, $5::text))
             ORDER BY c.code, c.url LIMIT $6`;
    if (change !== 'PERSISTING') await this.ensureDigest(db, pair);
    return nativeQuery<IssueChangeRecord>(
      db,
      `SELECT o.code, o.url, COALESCE(hi.title, bi.title, o.code) AS title,
              COALESCE(hi.severity, bi.severity) AS severity, COALESCE(hi.category, bi.category) AS category
       FROM (${changed}) o
       LEFT JOIN audit_issue hi ON hi.audit_id = $2 AND hi.code = o.code
       LEFT JOIN audit_issue bi ON bi.audit_id = $1 AND bi.code = o.code
       ORDER BY o.code, o.url`,
      change === 'PERSISTING' ? [...params, filter.limit, SITE_FACT_CODES] : [...params, filter.limit, change],
    );
  }

  /** How many crawled URLs were added, removed, or changed status or indexability between the audits. */
  async pageChangeTotals(db: NativeDb, pair: AuditPair): Promise<PageChangeTotals> {
    await this.ensureDigest(db, pair);
    const [row] = await nativeQuery<{ pages: PageChangeTotals }>(
      db,
      'SELECT pages FROM comparison_digest WHERE base_id = $1 AND head_id = $2',
      [pair.base, pair.head],
    );
    // The digest goes with its audits: deleted since ensureDigest, with their project.
    if (!row) throw notFound('Audit');
    return row.pages;
  }

  /** How many URLs show any of the given changes (all four when none is given). */
  async pageChangeCount(db: NativeDb, pair: AuditPair, changes: PageChange[]): Promise<number> {
    await this.ensureDigest(db, pair);
    const [row] = await nativeQuery<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM comparison_page_change
       WHERE base_id = $1 AND head_id = $2 AND ${changeFilter(changes, STORED_CHANGE_SQL)}`,
      [pair.base, pair.head],
    );
    return row.n;
  }

  /** Up to `limit` changed URLs (of the given changes, or any), in URL order after `after`, both sides of each. */
  async pageChanges(
    db: NativeDb,
    pair: AuditPair,
    filter: { changes: PageChange[]; after: string | null; limit: number },
  ): Promise<PageChangeRecord[]> {
    await this.ensureDigest(db, pair);
    return nativeQuery<PageChangeRecord>(
      db,
      `SELECT url, before, after FROM comparison_page_change
       WHERE base_id = $1 AND head_id = $2 AND ${changeFilter(filter.changes, STORED_CHANGE_SQL)}
         AND ($3::text IS NULL OR url > $3)
       ORDER BY url LIMIT $4`,
      [pair.base, pair.head, filter.after, filter.limit],
    );
  }

  /** One URL in both audits: its page row on each side (null where that audit did not crawl it). */
  async pageSides(
    db: NativeDb,
    pair: AuditPair,
    url: string,
  ): Promise<{ before: PageSide | null; after: PageSide | null }> {
    const rows = await nativeQuery<{ audit_id: string } & PageSide>(
      db,
      `SELECT audit_id, status_code AS "statusCode", indexable, kind, title FROM audit_page
       WHERE audit_id = ANY($1::uuid[]) AND url = $2`,
      [[pair.base, pair.head], url],
    );
    const of = (id: string): PageSide | null => {
      const r = rows.find((x) => x.audit_id === id);
      return r ? { statusCode: r.statusCode, indexable: r.indexable, kind: r.kind, title: r.title } : null;
    };
    return { before: of(pair.base), after: of(pair.head) };
  }

  /**
   * The check codes one URL has in either audit, with what became of each (the digest's change, or PERSISTING for a
   * code both found on it) and the issue's title, severity and category. A site fact the URL carries in either audit
   * shows what became of it on the site (its one row's change, or PERSISTING when both audits found it anywhere).
   */
  async urlIssueChanges(db: NativeDb, pair: AuditPair, url: string): Promise<UrlIssueChangeRow[]> {
    await this.ensureDigest(db, pair);
    return nativeQuery<UrlIssueChangeRow>(
      db,
      `WITH c AS (
         SELECT code, change FROM comparison_issue_change
         WHERE base_id = $1 AND head_id = $2 AND url = $3 AND code <> ALL($4::text[])
         UNION
         SELECT b.code, 'PERSISTING' FROM (${pageOccurrencesOf('$1', '$4')} AND url = $3) b
         JOIN (${pageOccurrencesOf('$2', '$4')} AND url = $3) h USING (code, url)
         UNION
         SELECT s.code, COALESCE((SELECT x.change FROM comparison_issue_change x
                                  WHERE x.base_id = $1 AND x.head_id = $2 AND x.change = ANY($5::text[])
                                    AND x.code = s.code LIMIT 1), 'PERSISTING')
         FROM (SELECT DISTINCT code FROM issue_occurrence
               WHERE audit_id IN ($1, $2) AND url = $3 AND code = ANY($4::text[])) s)
       SELECT c.code, c.change, COALESCE(hi.title, bi.title, c.code) AS title,
              COALESCE(hi.severity, bi.severity) AS severity, COALESCE(hi.category, bi.category) AS category,
              c.code = ANY($4::text[]) AS "siteFact"
       FROM c
       LEFT JOIN audit_issue hi ON hi.audit_id = $2 AND hi.code = c.code
       LEFT JOIN audit_issue bi ON bi.audit_id = $1 AND bi.code = c.code
       ORDER BY c.code`,
      [pair.base, pair.head, url, SITE_FACT_CODES, STORED_ISSUE_CHANGES],
    );
  }

  /** Why each audit scored what it did (score_breakdown; its `overrides` are the check settings it was scored with). */
  async auditBreakdowns(
    db: NativeDb,
    pair: AuditPair,
  ): Promise<{ base: ScoreBreakdown | null; head: ScoreBreakdown | null }> {
    const rows = await nativeQuery<{ id: string; breakdown: ScoreBreakdown | null }>(
      db,
      'SELECT id, score_breakdown AS breakdown FROM audit WHERE id IN ($1, $2)',
      [pair.base, pair.head],
    );
    const of = (id: string) => rows.find((r) => r.id === id)?.breakdown ?? null;
    return { base: of(pair.base), head: of(pair.head) };
  }

  /** New occurrences' example URLs, up to `perCode` per code (the alert facts' examples). */
  async newExamples(db: NativeDb, pair: AuditPair, perCode: number): Promise<{ code: string; urls: string[] }[]> {
    await this.ensureDigest(db, pair);
    return nativeQuery<{ code: string; urls: string[] }>(
      db,
      `SELECT code, (array_agg(url ORDER BY url))[1:$3] AS urls FROM comparison_issue_change
       WHERE base_id = $1 AND head_id = $2 AND change = 'NEW' GROUP BY code`,
      [pair.base, pair.head, perCode],
    );
  }

  /** URLs that answered 200 in the base and now answer 4xx/5xx or no longer index, up to `limit`, in URL order. */
  async pageRegressions(db: NativeDb, pair: AuditPair, limit: number): Promise<PageRegressionRecord[]> {
    await this.ensureDigest(db, pair);
    return nativeQuery<PageRegressionRecord>(
      db,
      `SELECT url, json_build_object('statusCode', (before->>'statusCode')::int,
                'indexable', (before->>'indexable')::boolean) AS before,
              json_build_object('statusCode', (after->>'statusCode')::int,
                'indexable', (after->>'indexable')::boolean) AS after
       FROM comparison_page_change
       WHERE base_id = $1 AND head_id = $2 AND before IS NOT NULL AND after IS NOT NULL
         AND (before->>'statusCode')::int = 200
         AND ((after->>'statusCode')::int >= 400
              OR ((before->>'indexable')::boolean AND NOT (after->>'indexable')::boolean))
       ORDER BY url LIMIT $3`,
      [pair.base, pair.head, limit],
    );
  }

  /** The custom extractors each audit ran (audit.extractors): key, name and kind; the head's name wins. */
  async auditExtractors(
    db: NativeDb,
    pair: AuditPair,
  ): Promise<{ key: string; name: string; kind: string; inBase: boolean; inHead: boolean }[]> {
    return nativeQuery<{ key: string; name: string; kind: string; inBase: boolean; inHead: boolean }>(
      db,
      `SELECT e.v->>'key' AS key, (array_agg(e.v->>'name' ORDER BY a.id = $2 DESC))[1] AS name,
              (array_agg(e.v->>'kind' ORDER BY a.id = $2 DESC))[1] AS kind,
              bool_or(a.id = $1) AS "inBase", bool_or(a.id = $2) AS "inHead"
       FROM audit a
       CROSS JOIN LATERAL jsonb_array_elements(COALESCE(a.extractors, '[]'::jsonb)) WITH ORDINALITY AS e(v, i)
       WHERE a.id IN ($1, $2) GROUP BY e.v->>'key'
       ORDER BY bool_or(a.id = $1) DESC, min(e.i) FILTER (WHERE a.id = $1), min(e.i), e.v->>'key'`,
      [pair.base, pair.head],
    );
  }

  /**
   * Per extractor either audit ran: how many URLs crawled by both had its value changed, appeared or disappeared,
   * in one join of the two audits' pages by URL over audit_page.extraction. Nothing is read for audits without
   * extractors.
   */
  async extractionChanges(db: NativeDb, pair: AuditPair): Promise<ExtractionChangeRow[]> {
    const extractors = await this.auditExtractors(db, pair);
    if (!extractors.length) return [];
    const counts = await nativeQuery<{ key: string; changed: number; appeared: number; disappeared: number }>(
      db,
      `SELECT key, count(*) FILTER (WHERE change = 'CHANGED')::int AS changed,
              count(*) FILTER (WHERE change = 'APPEARED')::int AS appeared,
              count(*) FILTER (WHERE change = 'DISAPPEARED')::int AS disappeared
       FROM (SELECT key, ${EXTRACTION_CHANGE_SQL} AS change
             FROM (${extractionPairs('SELECT unnest($3::text[]) AS key')}) p) c
       WHERE change IS NOT NULL GROUP BY key`,
      [pair.base, pair.head, extractors.map((e) => e.key)],
    );
    const of = new Map(counts.map((c) => [c.key, c]));
    return extractors.map((e) => ({
      ...e,
      changed: of.get(e.key)?.changed ?? 0,
      appeared: of.get(e.key)?.appeared ?? 0,
      disappeared: of.get(e.key)?.disappeared ?? 0,
    }));
  }

  /**
   * Up to `limit` URLs whose value of one extractor changed (of the given changes, or any), in URL order after
   * `after`, with both values as text; and, with `count`, how many there are in all.
   */
  async extractionPages(
    db: NativeDb,
    pair: AuditPair,
    filter: { key: string; changes: ExtractionChange[]; after: string | null; limit: number },
  ): Promise<ExtractionChangeRecord[]> {
    return nativeQuery<ExtractionChangeRecord>(
      db,
      `SELECT url, change, ${extractionText('bv')} AS before, ${extractionText('hv')} AS after
       FROM (SELECT url, bv, hv, ${EXTRACTION_CHANGE_SQL} AS change
             FROM (${extractionPairs('SELECT $3::text AS key')}) p
             WHERE ($5::text IS NULL OR url > $5)) c
       WHERE change = ANY($4::text[])
       ORDER BY url LIMIT $6`,
      [pair.base, pair.head, filter.key, filter.changes, filter.after, filter.limit],
    );
  }

  /** How many URLs crawled by both show one of the given changes of one extractor's value. */
  async extractionPageCount(db: NativeDb, pair: AuditPair, key: string, changes: ExtractionChange[]): Promise<number> {
    const [row] = await nativeQuery<{ n: number }>(
      db,
      `SELECT count(*)::int AS n
       FROM (SELECT ${EXTRACTION_CHANGE_SQL} AS change FROM (${extractionPairs('SELECT $3::text AS key')}) p) c
       WHERE change = ANY($4::text[])`,
      [pair.base, pair.head, key, changes],
    );
    return row.n;
  }
}
