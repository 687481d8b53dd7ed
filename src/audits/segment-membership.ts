import { StatementTimeoutError, type NativeDb } from '../platform/db/native-query.js';
import { badInput } from '../platform/errors.js';
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
 * itself goes into the statement, bounded by the same limits and the grid's statement size check. The worker writes
 * a completed audit's members at once (AuditJobRunner); a read writes those still missing (older audits, an edited
 * segment).
 */
export class SegmentMembership {
  constructor(private readonly repo = new UrlTableRepository()) {}

  /**
   * The ids of the segments whose members in the audit are kept: written now when missing or stale, one segment at a
   * time, each statement under the segment class's time limit (a rule too slow for it is refused). Reads of one audit
   * in this process share one writer (the others wait for it without a connection), and a segment another process is
   * writing is not waited for: its rule runs in this read's statement.
   */
  async keep(
    db: NativeDb,
    audit: { id: string; completed: boolean },
    segments: readonly { row: SegmentRow; rule: UrlFilter }[],
  ): Promise<Set<string>> {
    const keepable = audit.completed ? segments.filter((s) => filterReadsOnlyTheAudit(s.rule)) : [];
    if (!keepable.length) return new Set();
    const keyed = keepable.map((s) => ({ ...s, key: segmentRuleKey(segmentFilterInput(s.row)) }));
    const current = async () => {
      const kept = await this.repo.keptMemberships(db, audit.id);
      return new Set(keyed.filter((s) => kept.get(s.row.id) === s.key).map((s) => s.row.id));
    };
    let stored = await current();
    if (stored.size === keyed.length) return stored;
    const running = WRITERS.get(audit.id);
    if (running) {
      await running.catch(() => undefined);
      stored = await current();
    }
    const missing = keyed.filter((s) => !stored.has(s.row.id));
    if (!missing.length) return stored;
    const write = (async () => {
      for (const s of missing) {
        const done = await this.repo.keepSegmentMembers(db, audit.id, s.row.id, s.key, s.rule).catch((error) => {
          throw error instanceof StatementTimeoutError ? tooSlow(error, s.row) : error;
        });
        if (done !== 'busy') stored.add(s.row.id);
      }
    })();
    if (!running) WRITERS.set(audit.id, write);
    try {
      await write;
    } finally {
      if (WRITERS.get(audit.id) === write) WRITERS.delete(audit.id);
    }
    return stored;
  }
}

/** The writer of each audit's missing members in this process (reads of the audit meanwhile wait for it). */
const WRITERS = new Map<string, Promise<void>>();

/** A segment whose members PostgreSQL stopped at the time limit: which one, and what to do (never a 5xx). */
function tooSlow(timeout: StatementTimeoutError, row: SegmentRow) {
  const message =
    `writing segment "${row.name}"'s URLs in this audit took longer than ${timeout.timeoutMs / 1000} s and ` +
    'PostgreSQL stopped it: edit its rule to a cheaper one (fewer conditions, a REGEX or PATH segment)';
  return badInput(`segment(${row.id}): ${message}`, [{ path: `segment(${row.id})`, message }]);
}
