/**
 * The calibration table of docs/scores.md ("Calibration", rows 1-27; row 19 is the comparison's), one test per row and
 * scheme, on generated sites: every page-level check of the catalog evaluated on every page (passing unless the row
 * names it), every site-level check evaluated once, folded by the audit's own aggregator and scored by the audit's
 * own formula, as the engine does. An http site is what the evaluators make of one: TECH_HTTP_PAGE fails on every
 * page, and the checks that judge https responses only (HSTS, security headers, mixed content, secure cookies, links
 * from https to http) do not apply. Where a row is about what a page holds (its links, its resources, its basics),
 * the page's results for those codes come from the catalog's own evaluators run on that page (`evaluated`).
 */
import { describe, expect, it } from 'vitest';
import {
  CHECK_CATALOG,
  CHECK_THRESHOLDS,
  CheckAggregator,
  getCheck,
  type CheckCode,
} from '../../../src/seo/checks/index.js';
import { banded, type CheckOutcome } from '../../../src/seo/checks/check-outcome.js';
import { evaluateLinkTargets } from '../../../src/seo/checks/link-target-checks.js';
import { PAGE_EVALUATORS } from '../../../src/seo/checks/page-checks.js';
import type { PageCheckContext } from '../../../src/seo/checks/page-check-helpers.js';
import type { CheckResult } from '../../../src/seo/checks/check-results.js';
import type { LinkTargetInfo } from '../../../src/seo/checks/check.types.js';
import type { LinkFact, PageFacts, ResourceKind } from '../../../src/seo/page/index.js';
import {
  NO_INDEXABLE_PAGES,
  blockerNotices,
  overallImpact,
  scoreAudit,
  type Indexability,
  type ScoreResult,
} from '../../../src/seo/scoring/index.js';

type Scheme = 'https' | 'http';

interface GeneratedSite {
  /** HTML pages, /p/0 .. /p/N-1. */
  pages: number;
  /** Page-level codes failing on the first n pages ('all': every page). */
  failing?: Partial<Record<CheckCode, number | 'all'>>;
  /** Page-level codes failing at another severity than the catalog's on the first n pages (banded checks). */
  banded?: { code: CheckCode; pages: number | 'all'; severity: 'NOTICE' | 'WARNING' }[];
  /** Site-level codes that fail. */
  siteFailing?: CheckCode[];
  /**
   * Non-HTML URLs the crawl also fetched (a link's 404 target), each with the page-level codes failing on it;
   * `inlinks`: the crawled pages that link to it (its failing status is then its broken links' fix, charged once).
   */
  targets?: { url: string; failing: CheckCode[]; inlinks?: number }[];
  /** Every page names a canonical URL on another host. */
  canonicalOtherHost?: boolean;
  /**
   * What the first n pages hold ('all': every page), judged by the catalog's own evaluators on that page: its links
   * (internal ones under the site, with the status the crawl found for their targets), its resources, its missing
   * on-page basics. These codes' results on those pages replace the generated ones.
   */
  holds?: { pages: number | 'all'; page: HeldPage }[];
}

/** What a page holds, for the evaluators (`GeneratedSite.holds`). */
interface HeldPage {
  /** Links: an href, whether it is of the site, its text; `status`: what its target answered (internal http ones). */
  links?: { href: string; internal: boolean; text?: string; status?: number }[];
  /** Subresources and what they answered. */
  resources?: { url: string; kind: ResourceKind; status: number }[];
  /** On-page basics the page lacks (each its own check, and META_BASICS_MISSING on them together). */
  lacks?: ('title' | 'description' | 'viewport' | 'h1')[];
}

const PAGE_CODES = CHECK_CATALOG.filter((c) => c.scope === 'page').map((c) => c.code as CheckCode);
const SITE_CODES = CHECK_CATALOG.filter((c) => c.scope === 'site').map((c) => c.code as CheckCode);
/** What an http response makes of the scheme-dependent checks: not applicable (they judge https responses). */
const HTTPS_ONLY = new Set<CheckCode>([
  'TECH_HSTS_MISSING',
  'TECH_HSTS_SHORT',
  'TECH_CSP_MISSING',
  'TECH_CONTENT_TYPE_OPTIONS_MISSING',
  'TECH_CLICKJACKING_UNPROTECTED',
  'TECH_MIXED_CONTENT',
  'TECH_COOKIE_INSECURE',
  'LINKS_HTTPS_TO_HTTP',
]);

/** Page facts holding what a row says, and nothing else a check could fail on. */
function heldFacts(scheme: Scheme, url: string, held: HeldPage): PageFacts {
  const links: LinkFact[] = (held.links ?? []).map((link) => {
    const absolute = /^https?:/.test(link.href)
      ? link.href
      : link.href.startsWith('/')
        ? new URL(link.href, url).href
        : null;
    return {
      href: link.href,
      kind: absolute ? 'http' : 'uncrawlable',
      url: absolute,
      internal: link.internal,
      text: link.text ?? 'Read more about the topic',
      label: null,
      nofollow: false,
      position: 'content',
    } as LinkFact;
  });
  const lacks = new Set(held.lacks ?? []);
  return {
    titles: lacks.has('title') ? [] : ['A page of the generated site'],
    descriptions: lacks.has('description') ? [] : ['A description of this page of the generated site.'],
    viewport: lacks.has('viewport') ? null : 'width=device-width, initial-scale=1',
    h1Count: lacks.has('h1') ? 0 : 1,
    links,
    resources: (held.resources ?? []).map((r) => ({ url: r.url, kind: r.kind, tag: r.kind })),
  } as unknown as PageFacts;
}

/** The codes a held page decides, with their results from the catalog's evaluators. */
function evaluated(scheme: Scheme, url: string, held: HeldPage): Map<string, CheckResult> {
  const html = heldFacts(scheme, url, held);
  const statuses = new Map<string, LinkTargetInfo>();
  for (const link of html.links) {
    const status = held.links!.find((l) => l.href === link.href)?.status;
    if (link.url && status !== undefined) statuses.set(link.url, { status });
  }
  for (const r of held.resources ?? []) statuses.set(r.url, { status: r.status });
  const targets = evaluateLinkTargets(
    {
      selfUrl: url,
      selfNoindex: false,
      internalLinks: html.links.filter((l) => l.internal && l.url).map((l) => l.url!),
      externalLinks: html.links.filter((l) => !l.internal && l.url).map((l) => l.url!),
      canonical: null,
      resources: html.resources,
    },
    (target) => statuses.get(target),
  );
  const ctx = {
    html,
    facts: html,
    https: scheme === 'https',
    linkTargets: () => targets,
  } as unknown as PageCheckContext;
  const out = new Map<string, CheckResult>();
  const add = (code: string, outcome: CheckOutcome) => {
    if (outcome === null) return;
    const result: CheckResult = { code: code as CheckCode, applicable: true, failed: outcome.failed };
    if (outcome.causes) result.causes = outcome.causes;
    out.set(code, result);
  };
  const decides: CheckCode[] = [];
  if (held.links)
    decides.push('LINKS_HTTPS_TO_HTTP', 'LINKS_UNCRAWLABLE', 'LINKS_INTERNAL_BROKEN', 'LINKS_EXTERNAL_BROKEN');
  if (held.resources) decides.push('CONTENT_IMAGE_BROKEN', 'TECH_RESOURCE_BROKEN');
  if (held.lacks)
    decides.push('META_TITLE_MISSING', 'META_DESCRIPTION_MISSING', 'META_VIEWPORT_MISSING', 'CONTENT_H1_MISSING');
  decides.push('META_BASICS_MISSING');
  for (const code of decides) add(code, PAGE_EVALUATORS[code as keyof typeof PAGE_EVALUATORS](ctx));
  return out;
}

function scoreOn(scheme: Scheme, site: GeneratedSite): ScoreResult {
  const aggregator = new CheckAggregator({ maxOccurrencesPerCode: 20 });
  const upTo = (n: number | 'all' | undefined, page: number) => n === 'all' || (n !== undefined && page < n);
  const failingOn = (code: CheckCode, page: number) =>
    upTo(site.failing?.[code], page) || (scheme === 'http' && code === 'TECH_HTTP_PAGE');
  const urls: string[] = [];
  let noindex = 0;
  for (let page = 0; page < site.pages; page++) {
    const url = `${scheme}://generated.example/p/${page}`;
    urls.push(url);
    if (failingOn('TECH_NOINDEX', page)) noindex++;
    // The on-page basics a page lacks are its failing basic codes (or what it holds): the evaluators decide those
    // codes and META_BASICS_MISSING on them together.
    const held = site.holds?.find((h) => upTo(h.pages, page))?.page ?? {};
    const lacks = held.lacks ?? BASICS.filter(([, code]) => failingOn(code, page)).map(([basic]) => basic);
    const decided = evaluated(scheme, url, { ...held, lacks });
    aggregator.addPageResults(url, [
      ...PAGE_CODES.filter((code) => scheme === 'https' || !HTTPS_ONLY.has(code)).map((code): CheckResult => {
        const own = decided.get(code);
        if (own) return own;
        const band = site.banded?.find((b) => b.code === code && upTo(b.pages, page));
        return band
          ? { code, applicable: true, failed: true, severity: band.severity }
          : { code, applicable: true, failed: failingOn(code, page) };
      }),
    ]);
  }
  for (const target of site.targets ?? []) {
    aggregator.addPageResults(
      target.url.replace(/^https:/, `${scheme}:`),
      target.failing.map((code): CheckResult => {
        const linked = (target.inlinks ?? 0) > 0;
        return {
          code,
          applicable: true,
          failed: true,
          ...(linked && { evidence: { status: 404, inlinks: target.inlinks }, chargedWith: 'LINKS_INTERNAL_BROKEN' }),
        };
      }),
    );
  }
  aggregator.addSiteResults(
    SITE_CODES.filter((code) => scheme === 'https' || !HTTPS_ONLY.has(code)).map((code) => {
      const failed = site.siteFailing?.includes(code) ?? false;
      return { code, applicable: true, failed, occurrences: failed ? [{ url: urls[0] }] : [], applicablePages: 1 };
    }),
  );
  const canonicalOtherHost = site.canonicalOtherHost ? site.pages - noindex : 0;
  const indexability: Indexability = {
    indexable: site.pages - noindex - canonicalOtherHost,
    noindex,
    canonicalOtherHost,
    canonicalSameHost: 0,
  };
  return scoreAudit(aggregator.aggregates(), {
    pages: {
      html: site.pages,
      withCritical: aggregator.pagesWithCritical(urls),
      shownWorse: aggregator.pagesShownWorse(urls),
      indexability,
    },
    startUrlStatus: 200,
  });
}

const BASICS = [
  ['title', 'META_TITLE_MISSING'],
  ['description', 'META_DESCRIPTION_MISSING'],
  ['viewport', 'META_VIEWPORT_MISSING'],
  ['h1', 'CONTENT_H1_MISSING'],
] as const satisfies readonly (readonly [NonNullable<HeldPage['lacks']>[number], CheckCode])[];

const NOTICE_PAGE_CODES = PAGE_CODES.filter((code) => getCheck(code).severity === 'NOTICE');

describe('score calibration (docs/scores.md), row 1 (https; row 13 is the http site)', () => {
  it('1: a clean site scores 100 everywhere', () => {
    const { scores, breakdown } = scoreOn('https', { pages: 200 });
    expect(scores).toEqual({ overall: 100, meta: 100, content: 100, links: 100, technical: 100, performance: 100 });
    expect(breakdown).toMatchObject({ health: 100, costs: [], cappedFrom: null, blockers: [] });
  });
});

describe.each(['https', 'http'] as const)(
  'score calibration (docs/scores.md) on %s sites of 200 HTML pages',
  (scheme) => {
    const score = (site: GeneratedSite) => scoreOn(scheme, site);

    it('2: a missing title on 2 pages (1%): META <= 99, overall <= 99', () => {
      const { scores } = score({ pages: 200, failing: { META_TITLE_MISSING: 2 } });
      expect(scores.meta).toBeLessThanOrEqual(99);
      expect(scores.overall).toBeLessThanOrEqual(99);
    });

    it('3: a missing title on 20 pages (10%): META 85-92, overall 90-97', () => {
      const { scores } = score({ pages: 200, failing: { META_TITLE_MISSING: 20 } });
      expect(scores.meta).toBeGreaterThanOrEqual(85);
      expect(scores.meta).toBeLessThanOrEqual(92);
      expect(scores.overall).toBeGreaterThanOrEqual(90);
      expect(scores.overall).toBeLessThanOrEqual(97);
    });

    it('4: a missing title on every page: META <= 50, overall <= 60', () => {
      const { scores } = score({ pages: 200, failing: { META_TITLE_MISSING: 'all' } });
      expect(scores.meta).toBeLessThanOrEqual(50);
      expect(scores.overall).toBeLessThanOrEqual(60);
    });

    it('5: no meta description on any page: META 65-80, overall 93-98', () => {
      const { scores } = score({ pages: 200, failing: { META_DESCRIPTION_MISSING: 'all' } });
      expect(scores.meta).toBeGreaterThanOrEqual(65);
      expect(scores.meta).toBeLessThanOrEqual(80);
      expect(scores.overall).toBeGreaterThanOrEqual(93);
      expect(scores.overall).toBeLessThanOrEqual(98);
    });

    it('6: no viewport on any page: META <= 75, and <= 45 with no description either', () => {
      expect(score({ pages: 200, failing: { META_VIEWPORT_MISSING: 'all' } }).scores.meta).toBeLessThanOrEqual(75);
      const both = score({ pages: 200, failing: { META_VIEWPORT_MISSING: 'all', META_DESCRIPTION_MISSING: 'all' } });
      expect(both.scores.meta).toBeLessThanOrEqual(45);
    });

    it('7: 5 pages (2.5%) with a broken internal link: LINKS <= 98, overall <= 99', () => {
      const { scores, breakdown } = score({
        pages: 200,
        holds: [{ pages: 5, page: { links: [{ href: '/gone', internal: true, status: 404 }] } }],
        // The link's target answered 404: crawled, but not an HTML page of the site; listed with its 5 inlinks.
        targets: [{ url: 'https://generated.example/gone', failing: ['TECH_STATUS_4XX'], inlinks: 5 }],
      });
      expect(scores.links).toBeLessThanOrEqual(98);
      expect(scores.overall).toBeLessThanOrEqual(99);
      expect(breakdown.htmlPages).toBe(200);
      // The linking pages stay in search: their broken link is a WARNING on them.
      expect(breakdown.pagesWithCritical).toBe(0);
      expect(breakdown.costs.find((c) => c.code === 'LINKS_INTERNAL_BROKEN')).toMatchObject({
        severity: 'WARNING',
        affectedPages: 5,
        fixes: { count: 1, listed: [{ cause: `${scheme}://generated.example/gone`, pages: 5 }] },
      });
      // Charged once: the 404 URL is listed under its status, as its broken links' fix, at no cost of its own.
      expect(breakdown.costs.map((c) => c.code)).not.toContain('TECH_STATUS_4XX');
    });

    it('8: one page answers 500: TECHNICAL <= 99', () => {
      expect(score({ pages: 200, failing: { TECH_STATUS_5XX: 1 } }).scores.technical).toBeLessThanOrEqual(99);
    });

    it('9: three notice-level issues on every page: overall >= 97', () => {
      // The worst case: three notices of one category.
      const category = NOTICE_PAGE_CODES.map((code) => getCheck(code).category).find(
        (c) => NOTICE_PAGE_CODES.filter((code) => getCheck(code).category === c).length >= 3,
      );
      const three = NOTICE_PAGE_CODES.filter((code) => getCheck(code).category === category).slice(0, 3);
      const failing = Object.fromEntries(three.map((code) => [code, 'all' as const]));
      const { scores, breakdown } = score({ pages: 200, failing });
      // On http, "No HTTPS" is charged too (row 13).
      expect(breakdown.costs.filter((c) => c.code !== 'TECH_HTTP_PAGE')).toHaveLength(3);
      expect(scores.overall).toBeGreaterThanOrEqual(97);
    });

    it('10: noindex on every page: overall <= 50', () => {
      const { scores, breakdown } = score({
        pages: 200,
        failing: { TECH_NOINDEX: 'all' },
        siteFailing: ['TECH_NOINDEX_SITEWIDE'],
      });
      expect(scores.overall).toBeLessThanOrEqual(50);
      expect(breakdown.blockers).toEqual(['TECH_NOINDEX_SITEWIDE', NO_INDEXABLE_PAGES]);
    });

    it('11: 150 pages, 4 missing titles and one 500 page, then all fixed: overall rises by >= 2', () => {
      const before = score({ pages: 150, failing: { META_TITLE_MISSING: 4, TECH_STATUS_5XX: 1 } });
      const after = score({ pages: 150 });
      expect(after.scores.overall - before.scores.overall).toBeGreaterThanOrEqual(2);
    });

    it('12: one issue on one page, then the same issue on 10 pages: the score with 10 is strictly lower', () => {
      const critical = (n: number) => score({ pages: 200, failing: { META_TITLE_MISSING: n } }).scores;
      expect(critical(10).overall).toBeLessThan(critical(1).overall);
      expect(critical(10).meta).toBeLessThan(critical(1).meta);
      const warning = (n: number) => score({ pages: 200, failing: { META_DESCRIPTION_MISSING: n } }).scores;
      expect(warning(10).meta).toBeLessThan(warning(1).meta);
    });
  },
);

describe('score calibration (docs/scores.md), rows 13-18: http sites and Scoring v2', () => {
  it('13: a clean site served over http: health 100%, overall 85-98 and below https, "No HTTPS" first', () => {
    const http = scoreOn('http', { pages: 200 });
    const https = scoreOn('https', { pages: 200 });
    expect(http.breakdown.health).toBe(100);
    expect(http.scores.overall).toBeGreaterThanOrEqual(85);
    expect(http.scores.overall).toBeLessThanOrEqual(98);
    expect(http.scores.overall).toBeLessThan(https.scores.overall);
    expect(http.breakdown.costs[0]).toMatchObject({ code: 'TECH_HTTP_PAGE', severity: 'WARNING', scope: 'site' });
    expect(getCheck('TECH_HTTP_PAGE').title).toBe('No HTTPS');
  });

  it.each(['http', 'https'] as const)(
    '14: noindex on every page (%s): overall <= 50, banner "0 indexable pages"',
    (s) => {
      const { scores, breakdown } = scoreOn(s, {
        pages: 200,
        failing: { TECH_NOINDEX: 'all' },
        siteFailing: ['TECH_NOINDEX_SITEWIDE'],
      });
      expect(scores.overall).toBeLessThanOrEqual(50);
      expect(breakdown.health).toBe(100);
      const [banner, ...others] = blockerNotices(breakdown);
      expect(banner.message).toMatch(/^0 indexable pages: every page is noindex\./);
      expect(banner.message).toContain('thin and duplicate content checks are not applicable');
      expect(others).toEqual([]);
    },
  );

  it.each(['http', 'https'] as const)('15: 150 pages, 4 titles + one 500 then fixed (%s): rises by >= 2', (s) => {
    const before = scoreOn(s, { pages: 150, failing: { META_TITLE_MISSING: 4, TECH_STATUS_5XX: 1 } });
    const after = scoreOn(s, { pages: 150 });
    expect(after.scores.overall - before.scores.overall).toBeGreaterThanOrEqual(2);
  });

  it.each(['http', 'https'] as const)('16: a missing title on 1 page vs 10 pages (%s): 10 strictly lower', (s) => {
    const one = scoreOn(s, { pages: 200, failing: { META_TITLE_MISSING: 1 } }).scores;
    const ten = scoreOn(s, { pages: 200, failing: { META_TITLE_MISSING: 10 } }).scores;
    expect(ten.overall).toBeLessThan(one.overall);
  });

  it.each(['http', 'https'] as const)(
    '17: a DOM of 1,600 nodes on every page (%s): WARNING, health 100, PERF >= 70',
    (s) => {
      // The evaluator's band for 1,600 nodes, not a severity written here.
      const band = banded(1_600, CHECK_THRESHOLDS.metrics.domSize, {});
      expect(band).toMatchObject({ failed: true, severity: 'WARNING' });
      const { scores, breakdown } = scoreOn(s, {
        pages: 200,
        banded: [{ code: 'PERF_DOM_SIZE', pages: 'all', severity: band!.severity as 'WARNING' }],
      });
      const dom = breakdown.costs.find((c) => c.code === 'PERF_DOM_SIZE');
      expect(dom).toMatchObject({ severity: 'WARNING', affectedPages: 200 });
      expect(breakdown.health).toBe(100);
      expect(scores.performance).toBeGreaterThanOrEqual(70);
    },
  );

  it('17b: each page is charged at its own band (100 NOTICE pages and 100 WARNING pages)', () => {
    const mixed = scoreOn('https', {
      pages: 200,
      banded: [
        { code: 'PERF_DOM_SIZE', pages: 100, severity: 'WARNING' },
        { code: 'PERF_DOM_SIZE', pages: 'all', severity: 'NOTICE' },
      ],
    });
    const dom = mixed.breakdown.costs.find((c) => c.code === 'PERF_DOM_SIZE')!;
    expect(dom.severity).toBe('WARNING');
    // 100 x 0.3 x 100/200 + 100 x 0.03 x 100/200, not 100 x 0.3 x 200/200.
    expect(dom.points).toBeCloseTo(16.5, 6);
  });

  it.each(['http', 'https'] as const)(
    '18: every page canonical to another host (%s): <= 50, "0 indexable pages"',
    (s) => {
      const { scores, breakdown } = scoreOn(s, { pages: 200, canonicalOtherHost: true });
      expect(scores.overall).toBeLessThanOrEqual(50);
      expect(breakdown.blockers).toEqual([NO_INDEXABLE_PAGES]);
      expect(blockerNotices(breakdown)[0].message).toMatch(
        /^0 indexable pages: every page is canonical to another host\./,
      );
    },
  );
});

/** A footer or sidebar link of every page to a URL that answers 404 (rows 20, 21, 27). */
const linkToGone = (path: string, status = 404) => ({ href: path, internal: true, text: 'Gone', status });

describe.each(['https', 'http'] as const)('score calibration rows 20-27, Scoring v3 (%s)', (scheme) => {
  const score = (site: GeneratedSite) => scoreOn(scheme, site);
  const clean = () => score({ pages: 200 });
  const url = (path: string) => `${scheme}://generated.example${path}`;

  it('20: a footer on every page links to one URL that answers 404: overall >= 80, LINKS >= 60, health >= 95%', () => {
    const { scores, breakdown } = score({
      pages: 200,
      holds: [{ pages: 'all', page: { links: [linkToGone('/copyright.html')] } }],
      targets: [{ url: url('/copyright.html'), failing: ['TECH_STATUS_4XX'], inlinks: 200 }],
    });
    expect(scores.overall).toBeGreaterThanOrEqual(80);
    expect(scores.links).toBeGreaterThanOrEqual(60);
    expect(breakdown.health).toBeGreaterThanOrEqual(95);
    // One fix, "1 target, linked from 200 pages", first in its category.
    const links = breakdown.costs.filter((c) => c.category === 'LINKS');
    expect(links[0]).toMatchObject({
      code: 'LINKS_INTERNAL_BROKEN',
      fixes: { count: 1, listed: [{ cause: url('/copyright.html'), pages: 200 }] },
    });
    // The 404 URL is listed under its status issue with its 200 inlinks, and charged once (as the fix above).
    expect(breakdown.costs.some((c) => c.code === 'TECH_STATUS_4XX')).toBe(false);
  });

  it('20b: the 404 URL is listed under TECH_STATUS_4XX with its inlinks, charged nowhere else', () => {
    const aggregator = new CheckAggregator();
    aggregator.addPageResults(url('/copyright.html'), [
      {
        code: 'TECH_STATUS_4XX',
        applicable: true,
        failed: true,
        evidence: { status: 404, inlinks: 200 },
        chargedWith: 'LINKS_INTERNAL_BROKEN',
      },
    ]);
    const [status] = aggregator.aggregates();
    expect(status).toMatchObject({
      code: 'TECH_STATUS_4XX',
      affectedPages: 1,
      chargedElsewhere: 1,
      occurrences: [{ url: url('/copyright.html'), evidence: { status: 404, inlinks: 200 } }],
    });
  });

  it("21: row 20's site with the target restored scores row 1's (row 13's on http)", () => {
    const restored = score({
      pages: 200,
      holds: [{ pages: 'all', page: { links: [linkToGone('/copyright.html', 200)] } }],
    });
    expect(restored.scores).toEqual(clean().scores);
  });

  it('22: a favicon that answers 404 costs at most 1 overall point more than no favicon at all', () => {
    const missing = score({ pages: 200, siteFailing: ['META_FAVICON_MISSING'] });
    // Every page links the icon; the icon is no broken resource of every page, the site has no favicon.
    const failing = score({
      pages: 200,
      holds: [{ pages: 'all', page: { resources: [{ url: url('/favicon.png'), kind: 'icon', status: 404 }] } }],
      siteFailing: ['META_FAVICON_MISSING'],
    });
    expect(failing.breakdown.costs.map((c) => c.code)).not.toContain('TECH_RESOURCE_BROKEN');
    expect(missing.scores.overall - failing.scores.overall).toBeLessThanOrEqual(1);
  });

  it('23: links to 3 external sites over http on every page: no LINKS_HTTPS_TO_HTTP, overall as the clean site', () => {
    const links = ['http://one.example/', 'http://two.example/a', 'http://three.example/b'].map((href) => ({
      href,
      internal: false,
      text: 'An outside source',
    }));
    const { scores, breakdown } = score({ pages: 200, holds: [{ pages: 'all', page: { links } }] });
    expect(breakdown.costs.map((c) => c.code)).not.toContain('LINKS_HTTPS_TO_HTTP');
    expect(scores.overall).toBe(clean().scores.overall);
    if (scheme === 'https')
      expect(scores.overall).toBeGreaterThan(
        scoreOn('http', { pages: 200, holds: [{ pages: 'all', page: { links } }] }).scores.overall,
      );
  });

  it('23b: a link to the site itself over http from an https page is still one (one fix per target)', () => {
    if (scheme === 'http') return;
    const { breakdown } = score({
      pages: 200,
      holds: [{ pages: 'all', page: { links: [{ href: 'http://generated.example/about', internal: true }] } }],
    });
    expect(breakdown.costs.find((c) => c.code === 'LINKS_HTTPS_TO_HTTP')).toMatchObject({
      fixes: { count: 1, listed: [{ cause: 'http://generated.example/about', pages: 200 }] },
    });
  });

  it('24: meta description, viewport and H1 missing on every page: overall <= 75, META <= 30; lower on http', () => {
    const basics = { pages: 'all' as const, page: { lacks: ['description', 'viewport', 'h1'] as HeldPage['lacks'] } };
    const { scores, breakdown } = score({ pages: 200, holds: [basics] });
    expect(scores.overall).toBeLessThanOrEqual(75);
    expect(scores.meta).toBeLessThanOrEqual(30);
    expect(breakdown.costs.map((c) => c.code)).toContain('META_BASICS_MISSING');
    // Shown worse in search, not out of it: 2/3 of a healthy page each, no page with a CRITICAL issue.
    expect(breakdown).toMatchObject({ health: 66.7, pagesWithCritical: 0, pagesShownWorse: 200 });
    if (scheme === 'https')
      expect(scoreOn('http', { pages: 200, holds: [basics] }).scores.overall).toBeLessThan(scores.overall);
  });

  it('25: two javascript:void(0) anchors on every page: LINKS >= 85', () => {
    const links = [
      { href: 'javascript:void(0)', internal: false, text: 'Menu' },
      { href: 'javascript:void(0)', internal: false, text: 'Search' },
    ];
    const { scores, breakdown } = score({ pages: 200, holds: [{ pages: 'all', page: { links } }] });
    expect(scores.links).toBeGreaterThanOrEqual(85);
    expect(breakdown.costs.find((c) => c.code === 'LINKS_UNCRAWLABLE')).toMatchObject({
      affectedPages: 200,
      fixes: { count: 2 },
    });
  });

  it('26: one page with 100 broken links among 12,000: each target a broken link with its source page', () => {
    const broken = Array.from({ length: 100 }, (_, i) => linkToGone(`/missing/${i}`));
    const fine = Array.from({ length: 200 }, (_, i) => ({ href: `/p/${i}`, internal: true, status: 200 }));
    const { breakdown } = score({
      pages: 200,
      holds: [{ pages: 1, page: { links: [...fine, ...broken] } }],
      targets: broken.map((link) => ({ url: url(link.href), failing: ['TECH_STATUS_4XX'], inlinks: 1 })),
    });
    const cost = breakdown.costs.find((c) => c.code === 'LINKS_INTERNAL_BROKEN')!;
    expect(cost).toMatchObject({ affectedPages: 1, fixes: { count: 100 } });
    // Every 404 is its broken link's fix: no TECH_STATUS_4XX cost of its own (never one without its inlinks).
    expect(breakdown.costs.map((c) => c.code)).not.toContain('TECH_STATUS_4XX');
    // 100 fixes together cost less than the check failing on every page.
    expect(cost.points).toBeLessThan(100);
  });

  it("27: a sidebar on every page links 9 URLs that answer 404: 9 fixes, overall >= 70; restored is row 1's", () => {
    const pages = ['/a.html', '/b.html', '/c.html'];
    const images = ['/img/a.png', '/img/b.png', '/img/c.png'];
    const sheets = ['/css/a.css', '/css/b.css', '/css/c.css'];
    const sidebar = (status: number): HeldPage => ({
      links: pages.map((path) => linkToGone(path, status)),
      resources: [
        ...images.map((path) => ({ url: url(path), kind: 'image' as const, status })),
        ...sheets.map((path) => ({ url: url(path), kind: 'stylesheet' as const, status })),
      ],
    });
    const { scores, breakdown } = score({
      pages: 200,
      holds: [{ pages: 'all', page: sidebar(404) }],
      targets: pages.map((path) => ({ url: url(path), failing: ['TECH_STATUS_4XX'], inlinks: 200 })),
    });
    const fixes = breakdown.costs.flatMap((c) => c.fixes?.listed ?? []);
    expect(fixes).toHaveLength(9);
    for (const fix of fixes) expect(fix.pages).toBe(200);
    expect(scores.overall).toBeGreaterThanOrEqual(70);
    const restored = score({ pages: 200, holds: [{ pages: 'all', page: sidebar(200) }] });
    expect(restored.scores).toEqual(clean().scores);
  });
});

describe('score calibration, Scoring v3: "why this score" by points', () => {
  it('lists the costs by what they take off the overall score, a -30 line above a -5 one', () => {
    const { breakdown } = scoreOn('http', {
      pages: 200,
      failing: { META_DESCRIPTION_MISSING: 'all', META_OPEN_GRAPH_MISSING: 'all' },
    });
    const impacts = breakdown.costs.map((c) => overallImpact(c, breakdown.htmlPages));
    expect(impacts).toEqual([...impacts].sort((a, b) => b - a));
    expect(breakdown.costs[0].code).toBe('META_DESCRIPTION_MISSING');
  });
});
