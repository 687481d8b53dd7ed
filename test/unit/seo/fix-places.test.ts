import { describe, expect, it } from 'vitest';
import { aggregateChecks, type CheckResult } from '../../../src/seo/checks/index.js';
import { fixesSummary } from '../../../src/seo/scoring/index.js';

/** A page whose broken internal links point to `targets`. */
const page = (n: number, targets: string[]) => ({
  url: `http://site.test/p${n}`,
  results: [
    { code: 'LINKS_INTERNAL_BROKEN', applicable: true, failed: targets.length > 0, causes: targets } as CheckResult,
  ],
});

describe('places: fixes on the very same pages', () => {
  it('groups causes by the set of pages they are on, whatever the order the pages came in', () => {
    const aggregates = aggregateChecks([
      page(1, ['/a', '/b', '/c']),
      page(2, ['/b', '/a', '/d']),
      page(3, ['/c']),
      page(4, ['/d']),
      page(5, []),
    ]);
    const fixes = aggregates.find((a) => a.code === 'LINKS_INTERNAL_BROKEN')!.fixes!;
    expect(fixes.count).toBe(4);
    // /a and /b are on pages 1 and 2: one place; /c (1, 3) and /d (2, 4) also reach 2 pages, each its own place.
    expect([...fixes.places].sort((x, y) => y.fixes - x.fixes)).toEqual([
      { pages: 2, fixes: 2 },
      { pages: 2, fixes: 1 },
      { pages: 2, fixes: 1 },
    ]);
  });

  it('keeps 330 targets listed on one page as one place', () => {
    const targets = Array.from({ length: 330 }, (_, i) => `/gone/${i}`);
    const fixes = aggregateChecks([page(1, targets), page(2, [])]).find(
      (a) => a.code === 'LINKS_INTERNAL_BROKEN',
    )!.fixes!;
    expect(fixes).toMatchObject({ count: 330, places: [{ pages: 1, fixes: 330 }] });
  });
});

describe('fixesSummary: places said in the line every surface shows', () => {
  const listed = [{ cause: '/gone/0', pages: 2 }];
  it('says the place when the fixes are on the very same pages', () => {
    expect(fixesSummary('LINKS_INTERNAL_BROKEN', { count: 330, listed, places: 1 })).toBe(
      '330 targets in 1 place, linked from 2 pages',
    );
    expect(fixesSummary('LINKS_INTERNAL_BROKEN', { count: 426, listed, places: 3 })).toBe(
      '426 targets in 3 places, the widest linked from 2 pages',
    );
  });
  it('says nothing of places when each fix is its own, or when they were not kept', () => {
    expect(fixesSummary('LINKS_INTERNAL_BROKEN', { count: 9, listed, places: 9 })).toBe(
      '9 targets, the widest linked from 2 pages',
    );
    expect(fixesSummary('LINKS_INTERNAL_BROKEN', { count: 9, listed })).toBe(
      '9 targets, the widest linked from 2 pages',
    );
  });
});
