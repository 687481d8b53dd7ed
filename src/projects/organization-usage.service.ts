import type { AppConfig, Plan } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import { notFound } from '../platform/errors.js';
import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import { MAX_ACTIVE_KEYS, quotaFor, requirePrincipal } from '../identity/index.js';
import type { OrganizationUsageType } from './organization-usage.types.js';

/**
 * Every counter in one statement: each is an indexed count (project by organization, audits by project and
 * creation time, keywords by project, active keys by organization). The month starts at 00:00 UTC.
 */
const USAGE_SQL = `SELECT
  (SELECT count(*) FROM project WHERE organization_id = $1)::int AS projects,
  (SELECT count(*) FROM audit a JOIN project p ON p.id = a.project_id
    WHERE p.organization_id = $1 AND a.created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS "auditsThisMonth",
  (SELECT count(*) FROM keyword k JOIN project p ON p.id = k.project_id WHERE p.organization_id = $1)::int AS keywords,
  (SELECT count(*) FROM api_key WHERE organization_id = $1 AND revoked_at IS NULL)::int AS "apiKeys"`;

interface UsageRow {
  projects: number;
  auditsThisMonth: number;
  keywords: number;
  apiKeys: number;
}

/** What an organization uses of its plan, and the plan's limits (the configured quotas, the active-key rule). */
export class OrganizationUsageService {
  constructor(private readonly config: Pick<AppConfig, 'quotas'>) {}

  /** The caller's own organization only: any other is indistinguishable from a missing one. */
  async usage(db: NativeDb, principal: Principal | null, organizationId: string, plan: Plan): Promise<OrganizationUsageType> {
    const p = requirePrincipal(principal);
    if (p.organizationId !== organizationId) throw notFound('Organization');
    const [row] = await nativeQuery<UsageRow>(db, USAGE_SQL, [organizationId]);
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
