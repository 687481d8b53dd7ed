import { nativeQuery, nativeTransaction, type NativeDb } from '../platform/db/native-query.js';
import { jsonParam } from '../platform/db/sql-params.js';
import type { SerpResult } from '../serp/index.js';
import type { KeywordSnapshot } from './competitor-metrics.js';
import type { CompetitorHomepageType } from './competitor.types.js';

/**
 * Where the rows Project.counts.competitors counts live; registered with the project counters (one statement for all of
 * a list's counts).
 */
export const COMPETITOR_COUNT_SOURCE = { table: 'competitor' } as const;

/** A competitor row as the service reads it (`profile`: the homepage analysis, with its overall score). */
export interface CompetitorRow {
  id: string;
  projectId: string;
  domain: string;
  createdAt: Date;
  profile: (CompetitorHomepageType & { overallScore: number | null }) | null;
  profileCheckedAt: Date | null;
}

/** What `insertLocked` read under the project's lock, for the caller's rules. */
export interface CompetitorsOfProject {
  /** Competitors of the project. */
  count: number;
  /** Whether the domain is already tracked by the project. */
  duplicate: boolean;
}

/**
 * The competitor module's data access: competitors, their homepage profiles, and the SERP snapshots their positions
 * are read from. The only file of the module that speaks SQL; every statement is PostgreSQL's `$n` idiom through
 * native-query.
 */
export class CompetitorRepository {
  /** A project's competitors, oldest first. */
  listForProject(db: NativeDb, projectId: string): Promise<CompetitorRow[]> {
    return nativeQuery<CompetitorRow>(
      db,
      `SELECT id, project_id AS "projectId", domain, created_at AS "createdAt", profile,
        profile_checked_at AS "profileCheckedAt"
       FROM competitor WHERE project_id = $1 ORDER BY created_at, domain`,
      [projectId],
    );
  }

  /** The latest SERP snapshot of each keyword of the project: competitors' positions come from these. */
  latestSnapshots(db: NativeDb, projectId: string): Promise<KeywordSnapshot[]> {
    return nativeQuery<KeywordSnapshot>(
      db,
      `SELECT DISTINCT ON (s.keyword_id) s.keyword_id AS "keywordId", k.term, s.checked_at AS "checkedAt", s.results
       FROM serp_snapshot s JOIN keyword k ON k.id = s.keyword_id
       WHERE k.project_id = $1 ORDER BY s.keyword_id, s.checked_at DESC`,
      [projectId],
    ) as Promise<(KeywordSnapshot & { results: SerpResult[] })[]>;
  }

  /** Tracked keywords of the project. */
  async keywordCount(db: NativeDb, projectId: string): Promise<number> {
    const [row] = await nativeQuery<{ n: number }>(db, 'SELECT count(*)::int AS n FROM keyword WHERE project_id = $1', [
      projectId,
    ]);
    return row.n;
  }

  /**
   * Visibility per UTC day and domain over the last `days` days, computed in PostgreSQL from the SERP snapshots:
   * each keyword's latest snapshot of the day, each domain's best position in it (hosts compared without `www.`,
   * a trailing dot or a port; subdomains when the domain's flag says so, as findPosition does), and the clicks
   * those positions earn on `ctr` (1-based by position) as a share (0-100, one decimal) of ranking first for
   * every keyword checked that day.
   */
  visibilityHistory(
    db: NativeDb,
    projectId: string,
    days: number,
    domains: readonly { domain: string; includeSubdomains: boolean }[],
    ctr: readonly number[],
  ): Promise<{ day: Date; domain: string; visibility: number; keywordsChecked: number }[]> {
    return nativeQuery(
      db,
      `WITH target AS (
         SELECT t.domain, t.sub, t.ord FROM unnest($3::text[], $4::boolean[]) WITH ORDINALITY AS t(domain, sub, ord)
       ), snap AS (
         SELECT DISTINCT ON (s.keyword_id, date_trunc('day', s.checked_at, 'UTC'))
           s.keyword_id, date_trunc('day', s.checked_at, 'UTC') AS day, s.results
         FROM serp_snapshot s JOIN keyword k ON k.id = s.keyword_id
         WHERE k.project_id = $1 AND s.checked_at >= date_trunc('day', now(), 'UTC') - make_interval(days => $2 - 1)
         ORDER BY s.keyword_id, date_trunc('day', s.checked_at, 'UTC'), s.checked_at DESC
       ), hit AS (
         SELECT snap.day, snap.keyword_id, target.domain, target.ord,
           (SELECT min((r ->> 'position')::int) FROM jsonb_array_elements(snap.results) r,
              LATERAL (SELECT regexp_replace(regexp_replace(regexp_replace(lower(coalesce(nullif(r ->> 'domain', ''),
                split_part(split_part(r ->> 'url', '://', 2), '/', 1))), ':[0-9]+$', ''), '\\.$', ''), '^www\\.', '')
                AS host) h
            WHERE h.host = target.domain
              OR (target.sub AND right(h.host, length(target.domain) + 1) = '.' || target.domain)
           ) AS position
         FROM snap CROSS JOIN target
       )
       SELECT day, domain, count(*)::int AS "keywordsChecked",
         round((100 * sum(coalesce(($5::float8[])[position], 0)) / (count(*) * ($5::float8[])[1]))::numeric, 1)::float8
           AS visibility
       FROM hit GROUP BY day, domain, ord ORDER BY day, ord`,
      [projectId, days, domains.map((d) => d.domain), domains.map((d) => d.includeSubdomains), ctr],
    );
  }

  /**
   * Inserts a competitor under a lock on the project row: adds to one project are serialized, so the caller's
   * quota and duplicate rules hold under concurrency. `admit` is given the project's competitor count and whether
   * the domain is tracked already, and throws to refuse (nothing is written). False when the project row is gone
   * (deleted since the caller read it: the insert would fail on its foreign key).
   */
  async insertLocked(
    db: NativeDb,
    competitor: { id: string; projectId: string; domain: string },
    admit: (project: CompetitorsOfProject) => void,
  ): Promise<boolean> {
    const { id, projectId, domain } = competitor;
    return nativeTransaction(db, async (tx) => {
      const locked = await tx.query('SELECT 1 FROM project WHERE id = $1 FOR UPDATE', [projectId]);
      if (!locked.length) return false;
      const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM competitor WHERE project_id = $1', [
        projectId,
      ]);
      const [{ dup }] = await tx.query<{ dup: number }>(
        'SELECT count(*)::int AS dup FROM competitor WHERE project_id = $1 AND domain = $2',
        [projectId, domain],
      );
      admit({ count: n, duplicate: dup > 0 });
      await tx.query('INSERT INTO competitor (id, project_id, domain, created_at) VALUES ($1, $2, $3, now())', [
        id,
        projectId,
        domain,
      ]);
      return true;
    });
  }

  async findById(db: NativeDb, competitorId: string): Promise<CompetitorRow | undefined> {
    const [row] = await nativeQuery<CompetitorRow>(
      db,
      `SELECT id, project_id AS "projectId", domain, created_at AS "createdAt", profile,
        profile_checked_at AS "profileCheckedAt" FROM competitor WHERE id = $1`,
      [competitorId],
    );
    return row;
  }

  /** A competitor of a project of the organization (`competitorId` must be a UUID), or undefined. */
  async findOwned(db: NativeDb, competitorId: string, organizationId: string): Promise<CompetitorRow | undefined> {
    const [row] = await nativeQuery<CompetitorRow>(
      db,
      `SELECT c.id, c.project_id AS "projectId", c.domain, c.created_at AS "createdAt", c.profile,
        c.profile_checked_at AS "profileCheckedAt"
       FROM competitor c JOIN project pr ON pr.id = c.project_id WHERE c.id = $1 AND pr.organization_id = $2`,
      [competitorId, organizationId],
    );
    return row;
  }

  async deleteById(db: NativeDb, competitorId: string): Promise<void> {
    await nativeQuery(db, 'DELETE FROM competitor WHERE id = $1', [competitorId]);
  }

  /** The competitor's domain, or undefined when it was deleted. */
  async domainOf(db: NativeDb, competitorId: string): Promise<string | undefined> {
    const [row] = await nativeQuery<{ domain: string }>(db, 'SELECT domain FROM competitor WHERE id = $1', [
      competitorId,
    ]);
    return row?.domain;
  }

  /** Stores a homepage analysis (its error, if any, also in its own column), checked now. */
  async saveProfile(db: NativeDb, competitorId: string, profile: { error: string | null }): Promise<void> {
    await nativeQuery(
      db,
      'UPDATE competitor SET profile = $2, profile_error = $3, profile_checked_at = now() WHERE id = $1',
      [
        competitorId,
        jsonParam(profile), // a homepage title can carry U+0000, which jsonb refuses
        profile.error,
      ],
    );
  }
}
