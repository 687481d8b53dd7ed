import { describe, expect, it } from 'vitest';
import { rescoreWithout, scoreAudit, type ScoredCheck } from '../../../src/seo/scoring/index.js';
import { checkSettingChanges, describeSettingChange } from '../../../src/seo/checks/index.js';

/**
 * Two audits scored with different check settings compare under the checks both ran: the earlier audit scored again
 * from its breakdown without a check switched off since equals the score of the same site audited without it
 * (calibration row 19: same overall on both). Exact or nothing: a CRITICAL check, or a breakdown that does not give
 * the stored scores back, gives null.
 */
const html = 40;
const page = (code: string, affectedPages: number): ScoredCheck => ({ code, affectedPages, applicablePages: html });
const SITE: ScoredCheck[] = [
  page('META_DESCRIPTION_MISSING', 12),
  page('META_OPEN_GRAPH_MISSING', html),
  page('META_TWITTER_CARD_MISSING', html),
  page('CONTENT_THIN', 3),
  page('META_TITLE_MISSING', 2),
];
const scored = (checks: ScoredCheck[]) => scoreAudit(checks, { pages: { html, withCritical: 2 } });

describe('rescoreWithout', () => {
  it('gives the stored scores back with nothing left out', () => {
    const { scores, breakdown } = scored(SITE);
    expect(rescoreWithout(scores, breakdown, [])).toEqual(scores);
  });

  it.each([['META_OPEN_GRAPH_MISSING'], ['META_DESCRIPTION_MISSING', 'META_TWITTER_CARD_MISSING'], ['CONTENT_THIN']])(
    'without %s: the scores of the same site audited without it',
    (...codes) => {
      const before = scored(SITE);
      const after = scored(SITE.filter((c) => !codes.includes(c.code)));
      expect(rescoreWithout(before.scores, before.breakdown, codes)).toEqual(after.scores);
    },
  );

  it('keeps the blocker cap of a blocker still on', () => {
    const blocker: ScoredCheck = { code: 'TECH_NOINDEX_SITEWIDE', affectedPages: 1, applicablePages: 1, scope: 'site' };
    const before = scored([...SITE, blocker]);
    const after = scored([...SITE.filter((c) => c.code !== 'META_OPEN_GRAPH_MISSING'), blocker]);
    expect(before.breakdown.blockers).toEqual(['TECH_NOINDEX_SITEWIDE']);
    expect(rescoreWithout(before.scores, before.breakdown, ['META_OPEN_GRAPH_MISSING'])).toEqual(after.scores);
  });

  it('is null for a CRITICAL check (health cannot be recomputed) and for a breakdown that disagrees', () => {
    const { scores, breakdown } = scored(SITE);
    expect(rescoreWithout(scores, breakdown, ['META_TITLE_MISSING'])).toBeNull();
    expect(rescoreWithout({ ...scores, overall: scores.overall - 1 }, breakdown, ['CONTENT_THIN'])).toBeNull();
    expect(rescoreWithout(scores, null, ['CONTENT_THIN'])).toBeNull();
  });
});

describe('checkSettingChanges', () => {
  it('says what was switched off, on, or set to another severity; nothing for the same settings', () => {
    const off = { code: 'META_OPEN_GRAPH_MISSING', enabled: false, severity: null };
    const notice = { code: 'META_TITLE_TOO_LONG', enabled: true, severity: 'NOTICE' as const };
    expect(checkSettingChanges(undefined, [])).toEqual([]);
    expect(checkSettingChanges([off, notice], [notice, off])).toEqual([]);
    const changes = checkSettingChanges([notice], [off]);
    expect(changes).toEqual([
      {
        code: 'META_OPEN_GRAPH_MISSING',
        title: expect.any(String),
        change: 'DISABLED',
        severityBefore: 'NOTICE',
        severityAfter: null,
      },
      {
        code: 'META_TITLE_TOO_LONG',
        title: expect.any(String),
        change: 'SEVERITY',
        severityBefore: 'NOTICE',
        severityAfter: 'WARNING',
      },
    ]);
    expect(describeSettingChange(changes[0])).toMatch(/\(META_OPEN_GRAPH_MISSING\) disabled$/);
    expect(checkSettingChanges([off], null)).toEqual([expect.objectContaining({ change: 'ENABLED' })]);
  });
});
