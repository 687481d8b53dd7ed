import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { AuditIssueRepository, type BaselineOccurrenceRow } from './audit-issues.repository.js';
import { AuditRepository } from './audit.repository.js';

/** A completed audit as a CI gate's baseline: where it started, its overall score, every occurrence of its issues. */
export interface StoredAuditBaseline {
  auditId: string;
  /** Its project's URL (null when the project is gone). */
  url: string | null;
  overallScore: number | null;
  occurrences: BaselineOccurrenceRow[];
}

/**
 * The baseline of `seo audit --baseline <audit-id>`. Any organization's audit: the CLI is run by the operator of the
 * installation, with its DATABASE_URL, like `seo org set-plan`. Only a completed audit is a baseline (a failed or
 * cancelled one has no results to compare with). Reads only.
 */
export async function readAuditBaseline(
  em: EntityManager,
  auditId: string,
  repo = new AuditRepository(),
  issues = new AuditIssueRepository(),
): Promise<StoredAuditBaseline> {
  if (!isUuid(auditId)) throw notFound(`Audit ${auditId}`);
  const audit = await repo.findById(em, auditId);
  if (!audit) throw notFound(`Audit ${auditId}`);
  if (audit.status !== 'COMPLETED')
    throw new DomainError(
      'BAD_USER_INPUT',
      `audit ${auditId} is ${audit.status}, not COMPLETED: only a completed audit is a baseline`,
    );
  const [project, occurrences] = await Promise.all([
    repo.findProject(em, audit.projectId),
    issues.baselineOccurrences(em, auditId),
  ]);
  return { auditId, url: project?.url ?? null, overallScore: audit.overallScore ?? null, occurrences };
}
