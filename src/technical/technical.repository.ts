import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import type { SiteFacts } from './site-fact-checks.js';
import type { CoreWebVitalsType } from './technical.types.js';

/** The only file of the technical module that speaks SQL (the audit worker writes the snapshots). */
export class TechnicalRepository {
  /** The project's Core Web Vitals measured in the last `days` days, oldest first. */
  vitalsSince(db: NativeDb, projectId: string, days: number): Promise<CoreWebVitalsType[]> {
    return nativeQuery<CoreWebVitalsType>(
      db,
      `SELECT url, measured_at AS "measuredAt", device, source, lcp_ms AS "lcpMs", cls,
        inp_ms AS "inpMs", tbt_ms AS "tbtMs",
         fcp_ms AS "fcpMs", ttfb_ms AS "ttfbMs", performance_score AS "performanceScore"
       FROM technical_snapshot WHERE project_id = $1 AND measured_at >= now() - make_interval(days => $2)
       ORDER BY measured_at, url`,
      [projectId, days],
    );
  }

  /** The site facts of the project's latest snapshot, or null when it has none. */
  async latestSiteFacts(db: NativeDb, projectId: string): Promise<(SiteFacts & { measuredAt: Date }) | null> {
    const [site] = await nativeQuery<SiteFacts & { measuredAt: Date }>(
      db,
      `SELECT https, hsts, http_version AS "httpVersion", compression, robots_txt AS "robotsTxt", sitemap,
        measured_at AS "measuredAt"
       FROM technical_snapshot WHERE project_id = $1 ORDER BY measured_at DESC LIMIT 1`,
      [projectId],
    );
    return site ?? null;
  }
}
