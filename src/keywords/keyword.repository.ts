import { nativeQuery, nativeTransaction, type NativeDb } from '../platform/db/native-query.js';
import { jsonParam } from '../platform/db/sql-params.js';
import type { KeywordSnapshotRow } from './cannibalisation.js';
import type { KeywordTarget } from './keyword-terms.js';
import type { KeywordType, RankCheckStatusEnum } from './keyword.types.js';

/**
 * Where the rows Project.counts.keywords counts live; registered with the project counters (one statement for all of a
 * list's counts).
 */
export const KEYWORD_COUNT_SOURCE = { table: 'keyword' } as const;

/** Keywords with their latest successful ranking and the error of their latest check, in one query. */
const KEYWORD_SELECT = `
  SELECT k.id, k.project_id AS "projectId", k.term, k.country, k.language, k.device, k.created_at AS "createdAt",
         ok.position, ok.url, ok.checked_at AS "lastChecked",
         CASE WHEN last.status = 'FAILED' THEN last.error END AS "lastError",
         last.status AS "lastCheckStatus", last.checked_at AS "lastCheckAt",
         prev.position AS "previousPosition", prev.checked_at AS "previousChecked", best.position AS "bestPosition",
         best.ranked AS "rankedChecks"
  FROM keyword k
  LEFT JOIN LATERAL (SELECT position, url, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                     ORDER BY checked_at DESC, id DESC LIMIT 1) ok ON true
  LEFT JOIN LATERAL (SELECT position, checked_at FROM ranking r WHERE r.keyword_id = k.id AND r.status = 'OK'
                     ORDER BY checked_at DESC, id DESC OFFSET 1 LIMIT 1) prev ON true
  LEFT JOIN LATERAL (SELECT min(position) AS position, count(position)::int AS ranked FROM ranking r
                     WHERE r.keyword_id = k.id AND r.status = 'OK') best ON true
  LEFT JOIN LATERAL (SELECT status, error, checked_at FROM ranking r WHERE r.keyword_id = k.id
  ORDER BY checked_at DESC, id DESC LIMIT 1) last ON true`;

type KeywordRow = Omit<KeywordType, 'lastCheck'> & {
  lastCheckStatus: RankCheckStatusEnum | null;
  lastCheckAt: Date | null;
};

/**
 * A row as a keyword with its latest check, whatever its outcome: a failed one carries its reason (the runner stores
 * it). Written out rather than spread (a project lists its 1,000 keywords; see toIssueType in audit.resolver.ts).
 */
const toKeyword = (k: KeywordRow): KeywordType => ({
  id: k.id,
  projectId: k.projectId,
  term: k.term,
  country: k.country,
  language: k.language,
  device: k.device,
  createdAt: k.createdAt,
  position: k.position,
  url: k.url,
  lastChecked: k.lastChecked,
  lastError: k.lastError,
  previousPosition: k.previousPosition,
  previousChecked: k.previousChecked,
  bestPosition: k.bestPosition,
  rankedChecks: k.rankedChecks,
  lastCheck:
    k.lastCheckStatus && k.lastCheckAt
      ? { status: k.lastCheckStatus, checkedAt: k.lastCheckAt, error: k.lastError }
      : null,
});

/** A keyword to insert: its id, its term as shown and the term's dedupe key. */
export interface NewKeyword {
  id: string;
  term: string;
  key: string;
}

/** What `insertLocked` read under the project's lock, for the caller to decide what to insert. */
export interface KeywordsOfProject {
  /** Keywords of the project, every target included (the quota counts them all). */
  count: number;
  /** Dedupe keys already tracked for the requested target. */
  existingKeys: Set<string>;
}

/** A ranking of a keyword within the requested days (null columns: a keyword without one). */
export interface RankingHistoryRow {
  keywordId: string;
  term: string;
  status: RankCheckStatusEnum | null;
  position: number | null;
  url: string | null;
  error: string | null;
  checkedAt: Date | null;
}

/** Which rankings `rankingHistory` reads. */
export interface RankingHistoryFilter {
  days: number;
  /** Failed checks too (position null, with their error), not only successful ones. */
  includeFailed: boolean;
  /** Only these keywords of the project (null: all of them). */
  keywordIds: string[] | null;
}

/** What a rank check needs of a keyword and its project. */
export interface KeywordToCheck {
  id: string;
  term: string;
  country: string;
  language: string;
  device: 'desktop' | 'mobile';
  domain: string;
  settings: { rankIncludeSubdomains?: boolean };
}

/**
 * The results of a snapshot (`results`, a JSON array) whose URL or host contains `needle` (lower-case), by position:
 * the site's candidates, a cheap filter (the exact rule, isSiteResult, is the reader's). One expression for the
 * stored form the rank worker writes and for the snapshots read without it.
 */
const siteResultsOf = (results: string, needle: string) =>
  `COALESCE((SELECT jsonb_agg(e ORDER BY (e->>'position')::numeric) FROM jsonb_array_elements(${results}) e
     WHERE jsonb_typeof(e) = 'object'
       AND (strpos(lower(e->>'url'), ${needle}) > 0 OR strpos(lower(e->>'domain'), ${needle}) > 0)), '[]'::jsonb)`;

/** A SERP snapshot as the rank worker stores it (`results`: the kept top results). */
export interface NewSerpSnapshot {
  id: string;
  keywordId: string;
  provider: string;
  checkedAt: Date;
  requests: number;
  results: unknown[];
  /** The project's domain as normalizeDomain gives it (cannibalisation's needle). */
  siteNeedle: string;
}

/** A successful check's ranking (position and url null: not found within the depth). */
export interface NewRanking {
  id: string;
  keywordId: string;
  position: number | null;
  url: string | null;
  provider: string;
  snapshotId: string;
  checkedAt: Date;
}

/**
 * The keyword module's data access: keywords, their rankings and SERP snapshots. The only file of the module that
 * speaks SQL; every statement is PostgreSQL's `$n` idiom through native-query.
 */
export class KeywordRepository {
  /** A project's keywords with their latest ranking, oldest first. */
  async listForProject(db: NativeDb, projectId: string): Promise<KeywordType[]> {
    return (
      await nativeQuery<KeywordRow>(db, `${KEYWORD_SELECT} WHERE k.project_id = $1 ORDER BY k.created_at, k.id`, [
        projectId,
      ])
    ).map(toKeyword);
  }

  /** The keywords of these ids with their latest ranking, oldest first. */
  async findByIds(db: NativeDb, ids: string[]): Promise<KeywordType[]> {
    return (
      await nativeQuery<KeywordRow>(db, `${KEYWORD_SELECT} WHERE k.id = ANY($1::uuid[]) ORDER BY k.created_at, k.id`, [
        ids,
      ])
    ).map(toKeyword);
  }

  /** A keyword of a project of the organization (`keywordId` must be a UUID), or undefined. */
  async findOwned(db: NativeDb, keywordId: string, organizationId: string): Promise<KeywordType | undefined> {
    const rows = await nativeQuery<KeywordRow>(
      db,
      `${KEYWORD_SELECT} JOIN project pr ON pr.id = k.project_id WHERE k.id = $1 AND pr.organization_id = $2`,
      [keywordId, organizationId],
    );
    return rows.map(toKeyword)[0];
  }

  /**
   * Inserts the keywords `choose` returns, under a lock on the project row: adds to one project are serialized, so
   * the caller's quota holds under concurrency. `choose` is given the project's keyword count and the keys tracked
   * for `target`, and returns the rows to insert (or throws: nothing is written). Null when the project row is gone
   * (deleted since the caller read it: the insert would fail on its foreign key).
   */
  async insertLocked(
    db: NativeDb,
    projectId: string,
    target: KeywordTarget,
    choose: (project: KeywordsOfProject) => NewKeyword[],
  ): Promise<NewKeyword[] | null> {
    return nativeTransaction(db, async (tx) => {
      const locked = await tx.query('SELECT 1 FROM project WHERE id = $1 FOR UPDATE', [projectId]);
      if (!locked.length) return null;
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM keyword WHERE project_id = $1', [
        projectId,
      ]);
      const existing = new Set(
        (
          await tx.query<{ term_key: string }>(
            'SELECT term_key FROM keyword WHERE project_id = $1 AND country = $2 AND language = $3 AND device = $4',
            [projectId, target.country, target.language, target.device],
          )
        ).map((r) => r.term_key),
      );
      const rows = choose({ count: n, existingKeys: existing });
      if (rows.length === 0) return rows;
      await tx.query(
        `INSERT INTO keyword (id, project_id, term, term_key, country, language, device, created_at)
         SELECT r.id, $1, r.term, r.key, $2, $3, $4, now()
          FROM jsonb_to_recordset($5::jsonb) AS r(id uuid, term text, key text)
         ON CONFLICT DO NOTHING`,
        [projectId, target.country, target.language, target.device, jsonParam(rows)],
      );
      return rows;
    });
  }

  async deleteById(db: NativeDb, keywordId: string): Promise<void> {
    await nativeQuery(db, 'DELETE FROM keyword WHERE id = $1', [keywordId]);
  }

  async countForProject(db: NativeDb, projectId: string): Promise<number> {
    const [{ n }] = await nativeQuery<{ n: number }>(
      db,
      'SELECT count(*)::int AS n FROM keyword WHERE project_id = $1',
      [projectId],
    );
    return n;
  }

  /**
   * Every keyword of the project (oldest first; only `keywordIds` when given) with its rankings of the last `days`
   * days, oldest first (successful ones; failed ones too with `includeFailed`): one row per ranking, or one row with
   * null ranking columns for a keyword without any.
   */
  rankingHistory(db: NativeDb, projectId: string, filter: RankingHistoryFilter): Promise<RankingHistoryRow[]> {
    return nativeQuery<RankingHistoryRow>(
      db,
      `SELECT k.id AS "keywordId", k.term, r.status, r.position, r.url, r.error, r.checked_at AS "checkedAt"
       FROM keyword k LEFT JOIN ranking r ON r.keyword_id = k.id AND (r.status = 'OK' OR $3::boolean)
        AND r.checked_at >= now() - make_interval(days => $2)
       WHERE k.project_id = $1 AND ($4::uuid[] IS NULL OR k.id = ANY($4::uuid[]))
       ORDER BY k.created_at, k.id, r.checked_at, r.id`,
      [projectId, filter.days, filter.includeFailed, filter.keywordIds],
    );
  }

  /**
   * The SERP snapshots of the project's keywords (only `keywordIds` when given) checked within the last `days` days,
   * by keyword then check time, each with only the results whose URL or host contains `needle` (the project's
   * domain, lower-case: a cheap filter in PostgreSQL; the exact rule is the caller's). A snapshot without such a
   * result is kept, with no results: it is a check at which no site URL ranked. Read from the results the rank
   * worker stored apart (`site_results`) when it picked them with the same needle, else from all of them. With
   * `minUrls`, only the keywords with that many distinct such URLs in the window (the site's are among them: a
   * keyword with fewer cannot be cannibalised, and its snapshots are not read out).
   */
  snapshotsWithin(
    db: NativeDb,
    projectId: string,
    filter: { days: number; needle: string; keywordIds?: string[] | null; minUrls?: number },
  ): Promise<KeywordSnapshotRow[]> {
    return nativeQuery<KeywordSnapshotRow>(
      db,
      `WITH w AS MATERIALIZED (SELECT s.id, s.keyword_id, s.checked_at,
           CASE WHEN s.site_needle = $3 THEN s.site_results ELSE ${siteResultsOf('s.results', '$3')} END AS results
         FROM keyword k JOIN serp_snapshot s ON s.keyword_id = k.id
          AND s.checked_at >= now() - make_interval(days => $2)
         WHERE k.project_id = $1 AND ($4::uuid[] IS NULL OR k.id = ANY($4::uuid[]))),
       enough AS (SELECT w.keyword_id FROM w LEFT JOIN LATERAL jsonb_array_elements(w.results) e ON true
                  GROUP BY w.keyword_id HAVING count(DISTINCT e->>'url') >= $5)
       SELECT k.id AS "keywordId", k.term, k.country, k.language, k.device, w.checked_at AS "checkedAt", w.results
       FROM enough JOIN keyword k ON k.id = enough.keyword_id JOIN w ON w.keyword_id = enough.keyword_id
       ORDER BY k.created_at, k.id, w.checked_at, w.id`,
      [projectId, filter.days, filter.needle, filter.keywordIds ?? null, filter.minUrls ?? 0],
    );
  }

  /** The projects that have at least one keyword (the rank worker registers their daily checks). */
  async projectIdsWithKeywords(db: NativeDb): Promise<string[]> {
    return (await nativeQuery<{ project_id: string }>(db, 'SELECT DISTINCT project_id FROM keyword')).map(
      (r) => r.project_id,
    );
  }

  /** The ids of a project's keywords, oldest first. */
  async idsForProject(db: NativeDb, projectId: string): Promise<string[]> {
    return (
      await nativeQuery<{ id: string }>(db, 'SELECT id FROM keyword WHERE project_id = $1 ORDER BY created_at', [
        projectId,
      ])
    ).map((k) => k.id);
  }

  /** A keyword with its project's domain and settings, or undefined when it was deleted. */
  async findToCheck(db: NativeDb, keywordId: string): Promise<KeywordToCheck | undefined> {
    const [keyword] = await nativeQuery<KeywordToCheck>(
      db,
      `SELECT k.id, k.term, k.country, k.language, k.device, p.domain, p.settings FROM keyword k
        JOIN project p ON p.id = k.project_id WHERE k.id = $1`,
      [keywordId],
    );
    return keyword;
  }

  /** A snapshot, with the results that may be the site's (`siteNeedle`: the project's normalizeDomain) apart. */
  async insertSnapshot(db: NativeDb, s: NewSerpSnapshot): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO serp_snapshot (id, keyword_id, provider, checked_at, requests, results, site_needle, site_results)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::text, ${siteResultsOf('$6::jsonb', '$7::text')})`,
      [s.id, s.keywordId, s.provider, s.checkedAt, s.requests, JSON.stringify(s.results), s.siteNeedle],
    );
  }

  async insertRanking(db: NativeDb, r: NewRanking): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO ranking (id, keyword_id, status, position, url, provider, snapshot_id, checked_at)
        VALUES ($1, $2, 'OK', $3, $4, $5, $6, $7)`,
      [r.id, r.keywordId, r.position, r.url, r.provider, r.snapshotId, r.checkedAt],
    );
  }

  /** A failed check, with its reason, checked now. */
  async insertFailedRanking(
    db: NativeDb,
    r: { id: string; keywordId: string; provider: string; error: string },
  ): Promise<void> {
    await nativeQuery(
      db,
      `INSERT INTO ranking (id, keyword_id, status, provider, error, checked_at) VALUES ($1, $2,
        'FAILED', $3, $4, now())`,
      [r.id, r.keywordId, r.provider, r.error],
    );
  }
}
