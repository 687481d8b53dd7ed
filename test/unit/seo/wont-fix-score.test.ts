/**
 * The "won't fix" rule (src/seo/scoring/wont-fix.ts, docs/scores.md "Won't fix"): a marked occurrence is priced as
 * if the check had passed on that URL. Each case compares with the formula run on the site without those pages.
 */
import { describe, expect, it } from 'vitest';
import { scoreAudit, scoreExcludingWontFix, type ScoredCheck } from '../../../src/seo/scoring/index.js';

const PAGES = 40;
const checks = (titleMissing: number, descriptionMissing: number): ScoredCheck[] => [
  { code: 'META_TITLE_MISSING', affectedPages: titleMissing, applicablePages: PAGES },
  { code: 'META_DESCRIPTION_MISSING', affectedPages: descriptionMissing, applicablePages: PAGES },
];
const score = (c: ScoredCheck[], withCritical: number) => scoreAudit(c, { pages: { html: PAGES, withCritical } });

describe("won't fix in the score", () => {
  it('prices the marked pages as passing: the scores of the site without them', () => {
    const stored = score(checks(4, 10), 4);
    const marked = scoreExcludingWontFix(stored.breakdown, stored.scores, {
      pagesByCode: { META_DESCRIPTION_MISSING: 3 },
      criticalPagesReleased: 0,
      occurrences: 3,
    })!;
    const expected = score(checks(4, 7), 4);
    expect(marked.scores).toEqual(expected.scores);
    expect(marked.breakdown.costs).toEqual(expected.breakdown.costs);
    expect(marked.breakdown.wontFix).toEqual({ excludedOccurrences: 3, base: stored.breakdown });
  });

  it('counts a page whose every CRITICAL occurrence is marked as healthy', () => {
    const stored = score(checks(4, 0), 4);
    const marked = scoreExcludingWontFix(stored.breakdown, stored.scores, {
      pagesByCode: { META_TITLE_MISSING: 2 },
      criticalPagesReleased: 2,
      occurrences: 2,
    })!;
    const expected = score(checks(2, 0), 2);
    expect(marked.scores).toEqual(expected.scores);
    expect(marked.breakdown.health).toBe(expected.breakdown.health);
    expect(marked.breakdown.pagesWithCritical).toBe(2);
  });

  it('drops an issue whose every page is marked, and starts again from the base on every change', () => {
    const stored = score(checks(4, 10), 4);
    const all = scoreExcludingWontFix(stored.breakdown, stored.scores, {
      pagesByCode: { META_DESCRIPTION_MISSING: 10 },
      criticalPagesReleased: 0,
      occurrences: 10,
    })!;
    expect(all.breakdown.costs.map((c) => c.code)).toEqual(['META_TITLE_MISSING']);
    expect(all.scores).toEqual(score(checks(4, 0), 4).scores);
    // Marked, then every marking undone: the stored scores and breakdown again, whatever was marked in between.
    const undone = scoreExcludingWontFix(all.breakdown, all.scores, {
      pagesByCode: {},
      criticalPagesReleased: 0,
      occurrences: 0,
    })!;
    expect(undone.scores).toEqual(stored.scores);
    expect(undone.breakdown).toEqual(stored.breakdown);
  });

  it('lifts the cap of a blocker whose occurrence is marked', () => {
    const blocked: ScoredCheck[] = [{ code: 'TECH_ROBOTS_BLOCKS_ALL', affectedPages: 1, applicablePages: 1 }];
    const stored = score(blocked, 0);
    expect(stored.breakdown.blockers).toEqual(['TECH_ROBOTS_BLOCKS_ALL']);
    const marked = scoreExcludingWontFix(stored.breakdown, stored.scores, {
      pagesByCode: { TECH_ROBOTS_BLOCKS_ALL: 1 },
      criticalPagesReleased: 0,
      occurrences: 1,
    })!;
    expect(marked.breakdown.blockers).toEqual([]);
    expect(marked.breakdown.cappedFrom).toBeNull();
    expect(marked.scores).toEqual(score([], 0).scores);
  });

  it('keeps a banded check at its bands: the same share of its points stays', () => {
    const banded: ScoredCheck[] = [
      {
        code: 'PERF_DOM_SIZE',
        affectedPages: 4,
        applicablePages: PAGES,
        affectedBySeverity: { WARNING: 2, NOTICE: 2 },
      },
    ];
    const stored = score(banded, 0);
    const points = stored.breakdown.costs[0]!.points;
    const marked = scoreExcludingWontFix(stored.breakdown, stored.scores, {
      pagesByCode: { PERF_DOM_SIZE: 1 },
      criticalPagesReleased: 0,
      occurrences: 1,
    })!;
    expect(marked.breakdown.costs[0]!.points).toBeCloseTo((points * 3) / 4, 9);
  });

  it('leaves an audit whose breakdown does not give its scores again as it is', () => {
    const stored = score(checks(4, 10), 4);
    const other = { ...stored.scores, meta: stored.scores.meta - 1 };
    const exclusions = { pagesByCode: { META_DESCRIPTION_MISSING: 1 }, criticalPagesReleased: 0, occurrences: 1 };
    expect(scoreExcludingWontFix(stored.breakdown, other, exclusions)).toBeNull();
  });
});
