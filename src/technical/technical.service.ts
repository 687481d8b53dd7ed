import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { badInput } from '../platform/errors.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import type { TechnicalType } from './technical.types.js';
import { TechnicalRepository } from './technical.repository.js';
import { VITAL_BANDS, siteFactChecks } from './site-fact-checks.js';

export const MAX_TECHNICAL_DAYS = 365;

/** Technical SEO history of a project: site facts of the latest audit and Core Web Vitals over time. */
export class TechnicalService {
  constructor(
    private readonly projects: ProjectService,
    private readonly repo = new TechnicalRepository(),
  ) {}

  async history(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    days: number,
  ): Promise<TechnicalType> {
    const p = assertApiAccess(principal, 'read');
    if (!Number.isInteger(days) || days < 1 || days > MAX_TECHNICAL_DAYS) {
      throw badInput(`days must be an integer from 1 to ${MAX_TECHNICAL_DAYS}`, [
        { path: 'days', message: `must be 1-${MAX_TECHNICAL_DAYS}` },
      ]);
    }
    const project = await this.projects.findOwned(em, p, projectId);
    const coreWebVitals = await this.repo.vitalsSince(em, project.id, days);
    const site = await this.repo.latestSiteFacts(em, project.id);
    return {
      site: site && { ...site, checks: siteFactChecks(site) },
      coreWebVitals,
      vitalBands: VITAL_BANDS.map((b) => ({ ...b })),
    };
  }
}
