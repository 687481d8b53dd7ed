import type { EntityManager } from '@mikro-orm/postgresql';
import { nativeQuery, type NativeDb } from '../platform/db/native-query.js';
import { AuditIssueEntity, type AuditIssue } from './audit.entity.js';

/** An audit's issues and their occurrences, as the service and a CI gate's baseline read them. */

export interface OccurrenceRow {
  id: string;
  url: string;
  evidence: unknown;
}

/** One (code, URL) occurrence of a stored audit with its issue's fields (a CI gate's baseline). */
export interface BaselineOccurrenceRow {
  code: string;
  url: string;
  severity: 'CRITICAL' | 'WARNING' | 'NOTICE';
  title: string;
  category: string;
}

export class AuditIssueRepository {
  /**
   * Every issue of an audit, as plain rows: a list the pages read whole (a stress audit has 2,000), which MikroORM's
   * hydration and change tracking made ~10x slower than the statement itself (nothing here is ever written back).
   */
  findIssues(db: NativeDb, auditId: string): Promise<AuditIssue[]> {
    return nativeQuery<AuditIssue>(
      db,
      'SELECT id, audit_id AS "auditId", code, title, severity, category, description, ' +
        'affected_pages AS "affectedPages", applicable_pages AS "applicablePages", fixes, ' +
        'charged_elsewhere AS "chargedElsewhere" FROM audit_issue WHERE audit_id = $1',
      [auditId],
    );
  }

  findIssue(em: EntityManager, auditId: string, issueId: string): Promise<AuditIssue | null> {
    return em.findOne(AuditIssueEntity, { id: issueId, auditId });
  }

  /** Up to `limit` occurrences of the audit's code after the row id `after` (a decimal string), in id order. */
  listOccurrences(db: NativeDb, auditId: string, code: string, after: string, limit: number): Promise<OccurrenceRow[]> {
    // ORDER BY names the table's column: a bare `id` would be the output column, `id::text`, and text order
    // ('100' < '98') disagrees with the numeric cursor once the ids of one issue cross a power of ten.
    return nativeQuery<OccurrenceRow>(
      db,
      'SELECT o.id::text AS id, o.url, o.evidence FROM issue_occurrence o WHERE o.audit_id = $1 ' +
        'AND o.code = $2 AND o.id > $3 ORDER BY o.id LIMIT $4',
      [auditId, code, after, limit],
    );
  }

  /**
   * Every (code, URL) the audit's issues occur on, once, with its issue's severity, title and category: the
   * baseline of `seo audit --baseline <audit-id>`. Read only; an index range scan on (audit_id, code, ...).
   */
  baselineOccurrences(db: NativeDb, auditId: string): Promise<BaselineOccurrenceRow[]> {
    return nativeQuery<BaselineOccurrenceRow>(
      db,
      `SELECT DISTINCT o.code, o.url, i.severity, i.title, i.category FROM issue_occurrence o
       JOIN audit_issue i ON i.audit_id = o.audit_id AND i.code = o.code
       WHERE o.audit_id = $1 ORDER BY o.code, o.url`,
      [auditId],
    );
  }
}
