import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { LinkTargetInfo } from '../seo/checks/index.js';

/** One kept verdict (table external_link_check, migration 20261127-1630). */
interface CachedRow {
  url: string;
  outcome: 'answered' | 'failed';
  status: number | null;
  redirected: boolean;
  failure: string | null;
}

/** Rows written per statement. */
const WRITE_BATCH = 1_000;

/** The SQL of a project's external link verdicts of the last day (external-link-cache.ts holds the rules). */
export class ExternalLinkCacheRepository {
  /** The project's verdicts checked after `since`; older rows of the project are deleted first. */
  async recent(db: NativeDb, projectId: string, since: Date): Promise<Map<string, LinkTargetInfo>> {
    await nativeQuery(db, 'DELETE FROM external_link_check WHERE project_id = $1 AND checked_at <= $2', [
      projectId,
      since,
    ]);
    const rows = await nativeQuery<CachedRow>(
      db,
      `SELECT url, outcome, status, redirected, failure FROM external_link_check
        WHERE project_id = $1 AND checked_at > $2`,
      [projectId, since],
    );
    const found = new Map<string, LinkTargetInfo>();
    for (const row of rows) {
      const info: LinkTargetInfo = { status: row.status, redirected: row.redirected };
      if (row.outcome === 'failed') info.failure = row.failure ?? 'the request failed';
      found.set(row.url, info);
    }
    return found;
  }

  /** Keeps these verdicts for the project, checked now (a URL's older verdict is replaced). */
  async store(db: NativeDb, projectId: string, results: ReadonlyMap<string, LinkTargetInfo>): Promise<void> {
    const entries = [...results];
    for (let at = 0; at < entries.length; at += WRITE_BATCH) {
      const batch = entries.slice(at, at + WRITE_BATCH);
      await nativeQuery(
        db,
        `INSERT INTO external_link_check (project_id, url, outcome, status, redirected, failure, checked_at)
         SELECT $1, t.url, t.outcome, t.status, t.redirected, t.failure, now()
           FROM unnest($2::text[], $3::text[], $4::int[], $5::boolean[], $6::text[])
             AS t(url, outcome, status, redirected, failure)
         ON CONFLICT (project_id, url) DO UPDATE SET outcome = excluded.outcome, status = excluded.status,
           redirected = excluded.redirected, failure = excluded.failure, checked_at = excluded.checked_at`,
        [
          projectId,
          batch.map(([url]) => url),
          batch.map(([, info]) => (info.failure !== undefined ? 'failed' : 'answered')),
          batch.map(([, info]) => info.status),
          batch.map(([, info]) => info.redirected === true),
          batch.map(([, info]) => info.failure ?? null),
        ],
      );
    }
  }
}
