import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { badInput } from '../platform/errors.js';
import { nativeQuery } from '../platform/db/native-query.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import type { CoreWebVitalsType, SiteTechnicalFactsType, TechnicalType } from './technical.types.js';

export const MAX_TECHNICAL_DAYS = 365;

/** Technical SEO history of a project: site facts of the latest audit and Core Web Vitals over time. */
export class TechnicalService {
  constructor(private readonly projects: ProjectService) {}

  async history(em: EntityManager, principal: Principal | null, projectId: string, days: number): Promise<TechnicalType> {
    const p = assertApiAccess(principal, 'read');
    if (!Number.isInteger(days) || days < 1 || days > MAX_TECHNICAL_DAYS) {
      throw badInput(`days must be an integer from 1 to ${MAX_TECHNICAL_DAYS}`, [{ path: 'days', message: `must be 1-${MAX_TECHNICAL_DAYS}` }]);
    }
    const project = await this.projects.findOwned(em, p, projectId);
    const coreWebVitals = await nativeQuery<CoreWebVitalsType>(
      em,
      `SELECT url, measured_at AS "measuredAt", device, source, lcp_ms AS "lcpMs", cls, inp_ms AS "inpMs", tbt_ms AS "tbtMs",
         fcp_ms AS "fcpMs", ttfb_ms AS "ttfbMs", performance_score AS "performanceScore"
       FROM technical_snapshot WHERE project_id = $1 AND measured_at >= now() - make_interval(days => $2)
       ORDER BY measured_at, url`,
      [project.id, days],
    );
    const [site] = await nativeQuery<SiteTechnicalFactsType>(
      em,
      `SELECT https, hsts, http_version AS "httpVersion", compression, robots_txt AS "robotsTxt", sitemap
       FROM technical_snapshot WHERE project_id = $1 ORDER BY measured_at DESC LIMIT 1`,
      [project.id],
    );
    return { site: site ?? null, coreWebVitals };
  }
}
