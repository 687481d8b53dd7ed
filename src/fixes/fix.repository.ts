import type { CheckCode } from '../seo/checks/index.js';
import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { FixSuggestionType } from './fix.types.js';

/** An audit issue of a project, as a fix suggestion needs it. */
export interface IssueRow {
  id: string;
  auditId: string;
  code: CheckCode;
}

/** A fix suggestion to store (the cache key is the issue and the page URL). */
export interface NewFixSuggestion {
  id: string;
  issueId: string;
  url: string;
  summary: string;
  /** JSON text of the steps. */
  steps: string;
  code: string | null;
  source: string;
  model: string | null;
}

const SELECT_SUGGESTION = `SELECT id, issue_id AS "issueId", url, summary, steps, code, source, model,
  created_at AS "createdAt"
  FROM fix_suggestion`;

/** The only file of the fixes module that speaks SQL. */
export class FixRepository {
  /** The issue, if it belongs to an audit of this project. */
  async findIssue(db: NativeDb, projectId: string, issueId: string): Promise<IssueRow | null> {
    const [issue] = await nativeQuery<IssueRow>(
      db,
      `SELECT i.id, i.audit_id AS "auditId", i.code FROM audit_issue i JOIN audit a ON a.id = i.audit_id
        WHERE i.id = $1 AND a.project_id = $2`,
      [issueId, projectId],
    );
    return issue ?? null;
  }

  /** The issue's occurrence on `url` (any page when null), first by id. */
  async firstOccurrence(
    db: NativeDb,
    issue: IssueRow,
    url: string | null,
  ): Promise<{ url: string; evidence: unknown } | null> {
    const rows = await nativeQuery<{ url: string; evidence: unknown }>(
      db,
      `SELECT url, evidence FROM issue_occurrence WHERE audit_id = $1 AND code = $2 AND ($3::text IS NULL
        OR url = $3) ORDER BY id LIMIT 1`,
      [issue.auditId, issue.code, url],
    );
    return rows[0] ?? null;
  }

  async countOccurrences(db: NativeDb, issue: IssueRow): Promise<number> {
    const [any] = await nativeQuery<{ n: number }>(
      db,
      'SELECT count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1 AND code = $2',
      [issue.auditId, issue.code],
    );
    return any.n;
  }

  /**
   * Titles of up to `limit` other crawled pages of the audit (all but `url`), from which the site's title
   * pattern is read. Ordered by URL so the same audit gives the same sample.
   */
  async otherPageTitles(db: NativeDb, auditId: string, url: string, limit = 200): Promise<string[]> {
    const rows = await nativeQuery<{ title: string }>(
      db,
      `SELECT title FROM audit_page WHERE audit_id = $1 AND url <> $2 AND title IS NOT NULL AND title <> ''
        ORDER BY url LIMIT $3`,
      [auditId, url, limit],
    );
    return rows.map((row) => row.title);
  }

  /**
   * The audit's HTML pages (rows without a kind, written before kinds were stored, included) whose title is exactly
   * `title` (the pages of a META_TITLE_DUPLICATE group), each with its first h1, up to `limit` of them by URL.
   */
  async pagesTitled(
    db: NativeDb,
    auditId: string,
    title: string,
    limit = 100,
  ): Promise<{ url: string; h1: string | null }[]> {
    return nativeQuery<{ url: string; h1: string | null }>(
      db,
      `SELECT COALESCE(final_url, url) AS url, details->'h1'->>0 AS h1 FROM audit_page
        WHERE audit_id = $1 AND title = $2 AND COALESCE(kind, 'HTML') = 'HTML' ORDER BY url LIMIT $3`,
      [auditId, title, limit],
    );
  }

  /** Which of `titles` (compared in lower case) a page of the audit already has, in lower case. */
  async existingTitles(db: NativeDb, auditId: string, titles: readonly string[]): Promise<string[]> {
    if (titles.length === 0) return [];
    const rows = await nativeQuery<{ title: string }>(
      db,
      `SELECT DISTINCT lower(title) AS title FROM audit_page WHERE audit_id = $1 AND lower(title) = ANY($2::text[])`,
      [auditId, titles.map((title) => title.toLowerCase())],
    );
    return rows.map((row) => row.title);
  }

  async findSuggestion(db: NativeDb, issueId: string, url: string): Promise<FixSuggestionType | null> {
    const [cached] = await nativeQuery<FixSuggestionType>(db, `${SELECT_SUGGESTION} WHERE issue_id = $1 AND url = $2`, [
      issueId,
      url,
    ]);
    return cached ?? null;
  }

  /**
   * Stores a suggestion, or returns the one stored meanwhile for the same issue and URL. Rejects with the
   * driver's error (code 23503 when the issue's audit or project was deleted meanwhile).
   */
  async insertSuggestion(db: NativeDb, s: NewFixSuggestion): Promise<FixSuggestionType> {
    const [row] = await nativeQuery<FixSuggestionType>(
      db,
      `INSERT INTO fix_suggestion (id, issue_id, url, summary, steps, code, source, model, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
       ON CONFLICT (issue_id, url) DO UPDATE SET url = EXCLUDED.url
       RETURNING id, issue_id AS "issueId", url, summary, steps, code, source, model, created_at AS "createdAt"`,
      [s.id, s.issueId, s.url, s.summary, s.steps, s.code, s.source, s.model],
    );
    return row;
  }
}
