import type { NativeDb } from '../platform/db/native-query.js';
import type { SegmentRow } from './segment.repository.js';
import { segmentFilterInput, segmentRuleKey } from './segment-rule.js';
import { filterReadsOnlyTheAudit, UrlTableRepository, type UrlFilter } from './url-table.repository.js';

/*
 * A segment's rule compiled once per audit: its members (audit_segment_member, migration 20261128-0731) kept the
 * first time a completed audit's URL table reads the segment, under its rule's key. The segment names column and the
 * "in segment" conditions then read those rows by key, not the rule: a statement stays small whatever the project's
 * segments hold. An edited segment's rule has another key, and its members are written again when next read (one
 * statement over the audit's pages, the rule's conditions bounded: MAX_SEGMENT_CONDITIONS). A running audit's pages
 * and a rule that reads what changes after the audit (ranking keywords, first/last seen) are not kept: there the rule
 * itself goes into the statement, bounded by the same limits and the grid's statement size check.
 */
export class SegmentMembership {
  constructor(private readonly repo = new UrlTableRepository()) {}

  /** The ids of the segments whose members in the audit are kept (written now when missing or stale). */
  async keep(
    db: NativeDb,
    audit: { id: string; completed: boolean },
    segments: readonly { row: SegmentRow; rule: UrlFilter }[],
  ): Promise<Set<string>> {
    const stored = new Set<string>();
    const keepable = audit.completed ? segments.filter((s) => filterReadsOnlyTheAudit(s.rule)) : [];
    if (!keepable.length) return stored;
    const kept = await this.repo.keptMemberships(db, audit.id);
    for (const { row, rule } of keepable) {
      const key = segmentRuleKey(segmentFilterInput(row));
      if (kept.get(row.id) !== key) await this.repo.keepSegmentMembers(db, audit.id, row.id, key, rule);
      stored.add(row.id);
    }
    return stored;
  }
}
