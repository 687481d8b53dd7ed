import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/context.js';
import type { NativeDb, NativeTx } from '../platform/db/native-query.js';
import { badInput, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { assertApiAccess } from '../identity/index.js';
import { findCheck } from '../seo/checks/index.js';
import { scoreExcludingWontFix } from '../seo/scoring/index.js';
import { WontFixRepository, type WontFixRow } from './wont-fix.repository.js';

/** The longest reason kept, in characters (after trimming). */
export const WONT_FIX_REASON_MAX = 500;
const URL_MAX = 4096;

export type WontFixView = WontFixRow;

export interface MarkWontFixInput {
  /** The completed audit whose occurrence is marked: its fingerprint is what the marking keeps. */
  auditId: string;
  code: string;
  url: string;
  reason: string;
}

/** What applying the markings to an audit did: occurrences left out, markings that lapsed. */
export interface WontFixApplied {
  excludedOccurrences: number;
  lapsed: number;
}

/**
 * "Won't fix" (docs/scores.md): a project member accepts one check's finding on one URL, with a reason. The
 * marking is the project's (every member sees who marked it, when and why), kept across audits while the URL is
 * unchanged: the page's content hash and the occurrences' evidence for that code and URL are those it was marked
 * with. An audit that finds the same code on that URL with another fingerprint drops the marking (the change may
 * be the fix or a new problem: it is asked again); an audit where the URL has no such occurrence keeps it.
 *
 * Marked occurrences stay in the issue's URL list, flagged, and are left out of the score: at completion (in the
 * completion's transaction) and again, for the project's latest completed audit, on every mark and undo. Older
 * audits keep their scores. Reads need read access, marks and undos write access; another organization's project
 * or marking is NOT_FOUND.
 */
export class WontFixService {
  constructor(private readonly repo = new WontFixRepository()) {}

  async list(db: NativeDb, projectId: string): Promise<WontFixView[]> {
    return this.repo.list(db, projectId);
  }

  /** The project's markings among `urls` of one code, by URL (flags on an issue's occurrences). */
  async forUrls(
    db: NativeDb,
    projectId: string,
    code: string,
    urls: readonly string[],
  ): Promise<Map<string, WontFixView>> {
    const rows = await this.repo.forUrls(db, projectId, code, urls);
    return new Map(rows.map((row) => [row.url, row]));
  }

  /** Per code, the audit's occurrences a marking applies to. */
  async countsByCode(db: NativeDb, auditId: string): Promise<Map<string, number>> {
    const rows = await this.repo.countsByCode(db, auditId);
    return new Map(rows.map((row) => [row.code, row.occurrences]));
  }

  async mark(
    db: NativeDb,
    principal: Principal | null,
    projectId: string,
    input: MarkWontFixInput,
  ): Promise<WontFixView> {
    const p = await this.ownedForWrite(db, principal, projectId);
    // The audit first: another project's or organization's audit is NOT_FOUND whatever else the input says.
    if (!isUuid(input.auditId) || !(await this.repo.completedAuditInProject(db, projectId, input.auditId)))
      throw notFound('Audit');
    const reason = (input.reason ?? '').trim();
    if (!reason) throw badInput('A reason is required', [{ path: 'reason', message: 'required' }]);
    if (reason.length > WONT_FIX_REASON_MAX)
      throw badInput(`The reason is longer than ${WONT_FIX_REASON_MAX} characters`, [
        { path: 'reason', message: `at most ${WONT_FIX_REASON_MAX} characters` },
      ]);
    if (!findCheck(input.code)) throw badInput('Unknown check code', [{ path: 'code', message: 'unknown' }]);
    if (!input.url || input.url.length > URL_MAX)
      throw badInput('The URL is missing or too long', [{ path: 'url', message: 'invalid' }]);
    const fingerprint = await this.repo.fingerprint(db, projectId, input.auditId, input.code, input.url);
    if (!fingerprint) throw notFound('Occurrence');
    const row = await this.repo.upsert(db, {
      id: randomUUID(),
      projectId,
      code: input.code,
      url: input.url,
      reason,
      markedBy: p.userId ?? null,
      ...fingerprint,
    });
    if (!row) throw notFound('Project');
    await this.rescoreLatest(db, projectId);
    return row;
  }

  /** Removes a marking: its occurrences count again in the latest audit's score. */
  async undo(db: NativeDb, principal: Principal | null, projectId: string, id: string): Promise<WontFixView> {
    await this.ownedForWrite(db, principal, projectId);
    const row = isUuid(id) ? await this.repo.remove(db, projectId, id) : null;
    if (!row) throw notFound("Won't fix marking");
    await this.rescoreLatest(db, projectId);
    return row;
  }

  /** Rescores the project's latest completed audit with the markings as they are now. */
  private async rescoreLatest(db: NativeDb, projectId: string): Promise<void> {
    const latest = await this.repo.latestCompletedId(db, projectId);
    if (latest) await this.repo.withAuditLocked(db, latest, (tx) => this.applyToAudit(tx, latest));
  }

  /**
   * The one place markings reach a score: the audit's scores and breakdown from its stored breakdown with the
   * occurrences its project's markings apply to left out (scoreExcludingWontFix), and the markings its occurrences
   * show changed deleted. Called by the completion (inside its transaction, `db` the transaction) and on mark and
   * undo for the latest completed audit. An audit without a breakdown that gives its scores again keeps them.
   */
  async applyToAudit(db: NativeDb | NativeTx, auditId: string): Promise<WontFixApplied> {
    const markings = await this.repo.markingsIn(db, auditId);
    const lapsed = markings.filter((m) => !m.applies).map((m) => m.id);
    await this.repo.removeMany(db, lapsed);
    const applied = markings.filter((m) => m.applies);
    const audit = await this.repo.auditScores(db, auditId);
    if (!audit?.breakdown) return { excludedOccurrences: 0, lapsed: lapsed.length };
    const breakdown = audit.breakdown;
    if (!applied.length && !breakdown.wontFix) return { excludedOccurrences: 0, lapsed: lapsed.length };
    const pagesByCode: Record<string, number> = {};
    let occurrences = 0;
    for (const m of applied) {
      pagesByCode[m.code] = (pagesByCode[m.code] ?? 0) + 1;
      occurrences += m.occurrences;
    }
    const base = breakdown.wontFix?.base ?? breakdown;
    const critical = base.costs.filter((c) => c.severity === 'CRITICAL' && c.scope === 'page').map((c) => c.code);
    const criticalPagesReleased = await this.repo.pagesReleased(db, auditId, critical, applied);
    const result = scoreExcludingWontFix(breakdown, audit.scores, { pagesByCode, criticalPagesReleased, occurrences });
    if (result) await this.repo.writeScores(db, auditId, result.scores, result.breakdown);
    return { excludedOccurrences: result ? occurrences : 0, lapsed: lapsed.length };
  }

  private async ownedForWrite(db: NativeDb, principal: Principal | null, projectId: string): Promise<Principal> {
    const p = assertApiAccess(principal, 'write');
    if (!isUuid(projectId) || !(await this.repo.projectInOrganization(db, p.organizationId, projectId)))
      throw notFound('Project');
    return p;
  }
}
