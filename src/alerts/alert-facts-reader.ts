import type { NativeDb } from '../platform/db/native-query.js';
import { comparisonAlertFacts } from '../comparison/index.js';
import { describeSettingChange } from '../seo/checks/index.js';
import { siteUrlsOf } from '../keywords/index.js';
import { normalizeDomain } from '../serp/index.js';
import { SegmentService } from '../audits/index.js';
import type {
  AuditAlertFacts,
  KeywordCannibalisedFact,
  KeywordMoveFact,
  NewIssueFact,
  SegmentAlertFacts,
  VitalPoorFact,
} from './alert-facts.js';
import { AlertFactsRepository } from './alert-facts.repository.js';
import { poorVitalCrossings, type PoorBound } from './alert-vitals.js';

/** Fills the facts of a finished audit (null when it has no previous completed audit to compare with). */
export type AuditFactsProvider = (db: NativeDb, auditId: string) => Promise<AuditAlertFacts | null>;

/** Rank checks older than this are never news, whatever the watermark says (a project's first evaluation). */
const RANK_LOOKBACK_MS = 2 * 24 * 3600 * 1000;

/**
 * The facts alerts are evaluated on: an audit's scores against the previous completed audit, the Core Web Vitals that
 * crossed into "poor", and keyword moves, read here; new issues and regressed pages between the two audits are
 * src/comparison's (computed in PostgreSQL, as the comparison view shows them).
 */
export class AlertFactsReader {
  constructor(
    private readonly poorBounds: readonly PoorBound[],
    private readonly factsRepo = new AlertFactsRepository(),
    private readonly segmentFacts = new SegmentService(),
  ) {}

  /** A completed audit against the previous completed one; null without one. */
  async auditFacts(db: NativeDb, auditId: string): Promise<AuditAlertFacts | null> {
    const head = await this.factsRepo.auditScores(db, auditId);
    if (!head || head.status !== 'COMPLETED' || !head.externalLinksFinal) return null;
    const base = await this.factsRepo.previousCompletedAudit(db, head);
    if (!base) return null;
    const [{ settingChanges, beforeWontFix, ...changes }, vitalsPoor] = await Promise.all([
      comparisonAlertFacts(db, { base: base.id, head: head.id }),
      this.vitalsPoor(db, head.id, base.id),
    ]);
    const segments = await this.segments(db, head.projectId, { base: base.id, head: head.id }, changes.newIssues);
    return {
      projectId: head.projectId,
      auditId: head.id,
      baseAuditId: base.id,
      // A "won't fix" marking (or its undoing) between the two is no drop: both compare as scored before markings.
      ...(beforeWontFix.base || beforeWontFix.head
        ? {
            scores: { before: beforeWontFix.base ?? base.scores, after: beforeWontFix.head ?? head.scores },
            scoresBeforeWontFix: true,
          }
        : { scores: { before: base.scores, after: head.scores }, scoresBeforeWontFix: false }),
      settingChanges: settingChanges.map(describeSettingChange),
      ...changes,
      vitalsPoor,
      ...(segments.length ? { segments } : {}),
    };
  }

  /**
   * The segments the project's rules watch, on their own figures: scores before "won't fix" markings (as the site's
   * compare) and, of the checks new site-wide (a check the base did not run is not new), the URLs of the segment on
   * which each is new.
   */
  private async segments(
    db: NativeDb,
    projectId: string,
    pair: { base: string; head: string },
    newIssues: readonly NewIssueFact[],
  ): Promise<SegmentAlertFacts[]> {
    const watched = await this.factsRepo.watchedSegments(db, projectId);
    if (!watched.length) return [];
    const byCode = new Map(newIssues.map((i) => [i.code, i]));
    const facts = await this.segmentFacts.alertFacts(db, projectId, pair, watched, [...byCode.keys()]);
    return facts.map((f) => ({
      segmentId: f.segment.id,
      name: f.segment.name,
      scores: { before: f.before, after: f.after },
      newIssues: f.newIssues.map((n) => {
        const site = byCode.get(n.code)!;
        return { code: n.code, title: site.title, severity: site.severity, urls: n.urls, exampleUrls: n.exampleUrls };
      }),
    }));
  }

  /** The vitals of the head audit that are poor and were not in the base audit's measurement of the same URL. */
  async vitalsPoor(db: NativeDb, auditId: string, baseAuditId: string | null): Promise<VitalPoorFact[]> {
    const [head, base] = await Promise.all([
      this.factsRepo.auditVitals(db, auditId),
      baseAuditId ? this.factsRepo.auditVitals(db, baseAuditId) : [],
    ]);
    return poorVitalCrossings(head, base, this.poorBounds);
  }

  /**
   * Rank facts not evaluated yet: keyword moves of keywords whose latest successful check is later than the
   * project's watermark (and than two days ago), and the keywords whose latest check newly has two or more site URLs
   * ranking; with `until`, the latest of those checks, for the caller to advance the watermark to.
   */
  async rankFacts(
    db: NativeDb,
    projectId: string,
  ): Promise<{ moves: KeywordMoveFact[]; cannibalised: KeywordCannibalisedFact[]; until: Date | null }> {
    const watermark = await this.factsRepo.rankWatermark(db, projectId);
    const floor = new Date(Date.now() - RANK_LOOKBACK_MS);
    const since = watermark && watermark > floor ? watermark : floor;
    const [rows, checked] = await Promise.all([
      this.factsRepo.rankMoves(db, projectId, since),
      this.cannibalisedSince(db, projectId, since),
    ]);
    let until: Date | null = null;
    for (const at of [...rows.map((r) => r.checkedAt), ...checked.map((c) => c.checkedAt)]) {
      if (!until || at > until) until = at;
    }
    return {
      moves: rows.map(({ checkedAt: _checkedAt, ...move }) => move),
      cannibalised: checked.flatMap(({ checkedAt: _checkedAt, ...fact }) =>
        fact.urls.length >= 2 && fact.urlsBefore < 2 ? [fact] : [],
      ),
      until,
    };
  }

  /** Each keyword checked since `since` with the site URLs of its latest check and the count at the one before. */
  private async cannibalisedSince(
    db: NativeDb,
    projectId: string,
    since: Date,
  ): Promise<(KeywordCannibalisedFact & { checkedAt: Date })[]> {
    const site = await this.factsRepo.projectSite(db, projectId);
    const domain = site ? normalizeDomain(site.domain) : '';
    if (!site || !domain) return [];
    const opts = { includeSubdomains: site.includeSubdomains };
    const pairs = await this.factsRepo.keywordSnapshotPairs(db, projectId, since, domain);
    return pairs.map((p) => ({
      keywordId: p.keywordId,
      keyword: p.keyword,
      urls: siteUrlsOf(p.latest, domain, opts),
      urlsBefore: p.previous ? siteUrlsOf(p.previous, domain, opts).length : 0,
      checkedAt: p.checkedAt,
    }));
  }

  advanceRankWatermark(db: NativeDb, projectId: string, until: Date): Promise<void> {
    return this.factsRepo.advanceRankWatermark(db, projectId, until);
  }
}
