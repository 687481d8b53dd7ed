import { describe, expect, it } from 'vitest';
import { urlRangeText } from '../../../facades/web/src/features/audits/url-range';
import { changeOf, changeText } from '../../../facades/web/src/features/keywords/keyword-rows';

/** Lines of the web app that said what was not so (issue 63's bugs), each read as the page builds it. */
describe('the URL table position line', () => {
  const rows = (...urls: string[]) => urls.map((url) => ({ url }));

  it('counts URLs, not the rows their evidence spreads over ("URLs 1-4 of 3" was said)', () => {
    // 3 URLs with broken links, one of them with two: 4 rows.
    expect(urlRangeText(rows('/a', '/a', '/b', '/c'), 1, 3)).toBe('URLs 1–3 of 3 · 4 rows');
    expect(urlRangeText(rows('/a', '/a', '/a', '/b', '/b', '/b'), 1, 2)).toBe('URLs 1–2 of 2 · 6 rows');
  });

  it('says the page of results it shows, with no rows part when each URL is one row', () => {
    expect(urlRangeText(rows('/x', '/y'), 51, 1_052)).toBe('URLs 51–52 of 1,052');
  });
});

describe('a keyword not found', () => {
  const change = (previousChecked: string | null) =>
    changeText(changeOf({ change: { kind: 'ABSENT', delta: null }, previousChecked }));

  it('at its first and only check is not "not found either time"', () => {
    expect(change(null)).toBe('not found at its first check');
  });

  it('now and at the check before is', () => {
    expect(change('2026-11-28T06:00:00.000Z')).toBe('not found either time');
  });
});
