import type { AppConfig, Plan } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { notFound } from '../platform/errors.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { MAX_ACTIVE_KEYS, quotaFor, requirePrincipal } from '../identity/index.js';
import type { OrganizationUsageType } from './organization-usage.types.js';
import { ProjectRepository } from './project.repository.js';

/** What an organization uses of its plan, and the plan's limits (the configured quotas, the active-key rule). */
export class OrganizationUsageService {
  constructor(
    private readonly config: Pick<AppConfig, 'quotas'>,
    private readonly repo = new ProjectRepository(),
  ) {}

  /** The caller's own organization only: any other is indistinguishable from a missing one. */
  async usage(
    db: NativeDb,
    principal: Principal | null,
    organizationId: string,
    plan: Plan,
  ): Promise<OrganizationUsageType> {
    const p = requirePrincipal(principal);
    if (p.organizationId !== organizationId) throw notFound('Organization');
    const row = await this.repo.usage(db, organizationId);
    const quota = quotaFor(this.config, plan);
    return {
      ...row,
      projectsLimit: quota.projects,
      keywordsPerProjectLimit: quota.keywordsPerProject,
      competitorsPerProjectLimit: quota.competitorsPerProject,
      pagesPerAuditLimit: quota.pagesPerAudit,
      apiKeysLimit: MAX_ACTIVE_KEYS,
    };
  }
}
