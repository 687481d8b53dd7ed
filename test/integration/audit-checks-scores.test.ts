/**
 * Scores of a whole audit, computed by hand (score-formula.ts, docs/scores.md "Scoring") for a site small
 * enough to list every applicable check, then asserted exactly; and the engine's use of lab metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabMeter } from '../../src/audits/audit-engine.js';
import type { SafeHttpClient } from '../../src/platform/safe-http/index.js';
import type { Category } from '../../src/seo/checks/index.js';
import {
  auditSite,
  canonicalTag,
  createFixtureClient,
  page,
  reportedUrls,
  startFixtureSite,
  tinySite,
  type AuditRun,
  type RunningSite,
} from '../fixtures/sites/index.js';

/*
 * The tiny site: / (200, HTML: title "Short title", no <h1>, an <img> without width/height, links to
 * itself and to /missing) and /missing (404). robots.txt allows all and names a sitemap listing only /;
 * /favicon.ico answers 200; /llms.txt is missing. http, so TECH_HTTP_PAGE fails on / (not on the 404 answer).
 * HTML checks apply to / only; status, redirect, timeout and TTFB checks to both pages.
 *
 * Every check below applies (HAND_CHECKS lists them all); scores count only the failing ones (score-formula.ts):
 * a page-level issue costs 100 x weight (CRITICAL 1.0, WARNING 0.3, NOTICE 0.03) x affected / HTML pages (at
 * least 1 for a CRITICAL one), a site-level one CRITICAL 15, WARNING 5, NOTICE 0.5; a fix-grouped one (a broken
 * link's target) costs per fix its fix severity's ceiling (CRITICAL 35) x sqrt(pages it is on / HTML pages). One
 * HTML page: / (the 404 answer of /missing is a link target, not a page).
 *
 * META         TITLE_TOO_SHORT (NOTICE, 1 page)                        3        -> 97
 * CONTENT      H1_MISSING (WARNING, 1 page)                           30        -> 70
 * LINKS        INTERNAL_BROKEN (a WARNING on /, one fix: /missing, a CRITICAL fix on 1 of 1 pages:
 *              35 x sqrt(1) = 35)                                     35        -> 65
 * TECHNICAL    STATUS_4XX: /missing answers 404 and is listed (inlinks 1), but / links to it, so it is charged
 *              once, as LINKS' INTERNAL_BROKEN fix above (0 here);
 *              HTTP_PAGE ("No HTTPS", a WARNING site fact on 1/1 of the pages: max(5, 0.5 x 30)) 15,
 *              LLMS_TXT_MISSING (site NOTICE) 0.5                                       -> round(84.5) = 85
 * PERFORMANCE  IMAGE_NO_DIMENSIONS (NOTICE, 1 page)                    3        -> 97
 * health       / has no CRITICAL issue (a broken link is a WARNING on its page; /missing is no HTML page) 100 %
 * OVERALL = round(0.5 x 100 + 0.5 x (20*97 + 20*70 + 20*65 + 25*85 + 15*97) / 100) = round(50 + 0.5 x 82.2)
 *         = round(91.1) = 91; no blocker fires and the start URL answers 200, so no cap.
 */
const HAND_SCORES = { overall: 91, meta: 97, content: 70, links: 65, technical: 85, performance: 97 };

/** The hand list above: every applicable check, with [affected, applicable] pages. */
const HAND_CHECKS: Record<Category, Record<string, [number, number]>> = {
  // META_JSONLD_REQUIRED_MISSING does not apply: the page's one JSON-LD block is an Article (ARTICLE_INCOMPLETE's).
  META: {
    META_TITLE_MISSING: [0, 1],
    META_BASICS_MISSING: [0, 1],
    META_TITLE_TOO_SHORT: [1, 1],
    META_TITLE_TOO_LONG: [0, 1],
    META_TITLE_MULTIPLE: [0, 1],
    META_TITLE_DUPLICATE: [0, 1],
    META_DESCRIPTION_MISSING: [0, 1],
    META_DESCRIPTION_TOO_SHORT: [0, 1],
    META_DESCRIPTION_TOO_LONG: [0, 1],
    META_DESCRIPTION_MULTIPLE: [0, 1],
    META_DESCRIPTION_SAME_AS_TITLE: [0, 1],
    META_DESCRIPTION_DUPLICATE: [0, 1],
    META_TAGS_IN_BODY: [0, 1],
    META_VIEWPORT_MISSING: [0, 1],
    META_VIEWPORT_NO_ZOOM: [0, 1],
    META_LANG_MISSING: [0, 1],
    META_LANG_INVALID: [0, 1],
    META_CHARSET_MISSING: [0, 1],
    META_DOCTYPE_MISSING: [0, 1],
    META_FAVICON_MISSING: [0, 1],
    META_OPEN_GRAPH_MISSING: [0, 1],
    META_TWITTER_CARD_MISSING: [0, 1],
    META_JSONLD_INVALID: [0, 1],
    META_JSONLD_NO_CONTEXT: [0, 1],
    META_JSONLD_TYPE_MISSING: [0, 1],
    META_JSONLD_ARTICLE_INCOMPLETE: [0, 1],
    META_JSONLD_DATE_INVALID: [0, 1],
    META_VIEWPORT_NOT_RESPONSIVE: [0, 1],
    META_VIEWPORT_MULTIPLE: [0, 1],
    META_OG_INCOMPLETE: [0, 1],
    META_OG_IMAGE_RELATIVE: [0, 1],
    META_OG_URL_MISMATCH: [0, 1],
    META_TWITTER_CARD_INVALID: [0, 1],
  },
  CONTENT: {
    CONTENT_H1_MISSING: [1, 1],
    CONTENT_H1_MULTIPLE: [0, 1],
    CONTENT_HEADING_SKIP: [0, 1],
    CONTENT_THIN: [0, 1],
    CONTENT_DUPLICATE: [0, 1],
    CONTENT_NEAR_DUPLICATE: [0, 1],
    CONTENT_IMAGE_ALT_MISSING: [0, 1],
    CONTENT_IMAGE_ALT_TOO_LONG: [0, 1],
    CONTENT_LINK_TEXT_GENERIC: [0, 1],
    CONTENT_DUPLICATE_ID: [0, 1],
    CONTENT_LOW_TEXT_RATIO: [0, 1],
    CONTENT_IMAGE_BROKEN: [0, 1],
    CONTENT_IMAGE_ALT_FILENAME: [0, 1],
    CONTENT_IMAGE_EMPTY_SRC: [0, 1],
    CONTENT_PLACEHOLDER_TEXT: [0, 1],
  },
  LINKS: {
    LINKS_INTERNAL_BROKEN: [1, 1],
    LINKS_TO_REDIRECT: [0, 1],
    LINKS_REDIRECT_CHAIN: [0, 2],
    LINKS_REDIRECT_LOOP: [0, 2],
    LINKS_DEAD_END: [0, 1],
    LINKS_TOO_MANY: [0, 1],
    LINKS_INTERNAL_NOFOLLOW: [0, 1],
    LINKS_UNCRAWLABLE: [0, 1],
    LINKS_DEPTH_HIGH: [0, 1],
    LINKS_LOCALHOST: [0, 1],
    LINKS_TEMPORARY_REDIRECT: [0, 2],
    LINKS_NO_ANCHOR_TEXT: [0, 1],
  },
  TECHNICAL: {
    // The 404 is listed with its inlinks, and charged once, as the fix of `/`'s broken link (LINKS_INTERNAL_BROKEN).
    TECH_STATUS_4XX: [1, 2],
    TECH_STATUS_5XX: [0, 2],
    TECH_TIMEOUT: [0, 2],
    PAGE_FETCH_FAILED: [0, 2],
    TECH_NOINDEX: [0, 1],
    TECH_NOINDEX_SITEWIDE: [0, 1],
    TECH_ROBOTS_MISSING: [0, 1],
    TECH_ROBOTS_UNREACHABLE: [0, 1],
    TECH_ROBOTS_BLOCKS_ALL: [0, 1],
    TECH_ROBOTS_INVALID: [0, 1],
    TECH_BLOCKED_BY_ROBOTS: [0, 1],
    TECH_SITEMAP_MISSING: [0, 1],
    TECH_SITEMAP_INVALID: [0, 1],
    TECH_SITEMAP_NON_INDEXABLE: [0, 1],
    TECH_CANONICAL_MISSING: [0, 1],
    TECH_CANONICAL_MULTIPLE: [0, 1],
    TECH_CANONICAL_RELATIVE: [0, 1],
    TECH_CANONICAL_TO_BROKEN: [0, 1],
    TECH_CANONICAL_INVALID: [0, 1],
    TECH_CANONICAL_OTHER_HOST: [0, 1],
    TECH_URL_UPPERCASE: [0, 1],
    TECH_URL_UNDERSCORE: [0, 1],
    TECH_URL_TOO_LONG: [0, 1],
    TECH_HTTP_PAGE: [1, 1],
    TECH_HTML_TOO_LARGE: [0, 1],
    TECH_AI_SEARCH_BLOCKED: [0, 1],
    TECH_LLMS_TXT_MISSING: [1, 1],
    TECH_SITEMAP_BLOCKED_BY_ROBOTS: [0, 1],
    // No TECH_RESOURCE_BROKEN: the page's one subresource is its favicon, which META_FAVICON_MISSING judges.
    TECH_RESOURCE_PRIVATE_ADDRESS: [0, 1],
    TECH_META_REFRESH: [0, 1],
    TECH_SOFT_404: [0, 1],
    TECH_URL_DOUBLE_SLASH: [0, 1],
    TECH_URL_NON_ASCII: [0, 1],
    TECH_URL_SESSION_ID: [0, 1],
    TECH_CLIENT_RENDERED_SUSPECTED: [0, 1],
  },
  PERFORMANCE: {
    PERF_TTFB: [0, 2],
    PERF_DOM_SIZE: [0, 1],
    PERF_IMAGE_TOO_LARGE: [0, 1],
    PERF_IMAGE_NO_DIMENSIONS: [1, 1],
    PERF_NO_COMPRESSION: [0, 1],
    PERF_RENDER_BLOCKING: [0, 1],
    PERF_NO_CACHE_HEADERS: [0, 1],
    PERF_IMAGE_LEGACY_FORMAT: [0, 1],
  },
};

/** Weight sums per category from the comment, to catch a severity that changed under the hand count. */

let site: RunningSite;
let client: SafeHttpClient;
let plain: AuditRun;
let lab: AuditRun;
let labRequests: string[][] = [];

/** A stub of the browser lab meter: fixed measurements for whatever it is asked to measure. */
const stubLabMeter: LabMeter = async (urls) => {
  labRequests.push(urls);
  return new Map(
    urls.map((url) => [
      url,
      {
        device: 'mobile' as const,
        lcpMs: 4_500,
        cls: 0.05,
        inpMs: 300,
        tbtMs: 100,
        fcpMs: 2_000,
        ttfbMs: 50,
        pageWeightBytes: 3_000_000,
      },
    ]),
  );
};

beforeAll(async () => {
  site = await startFixtureSite({ host: 'tiny.test', compress: true });
  site.serve(tinySite(site.origin));
  client = createFixtureClient(['tiny.test']);
  labRequests = [];
  [plain, lab] = await Promise.all([
    auditSite(client, site.url('/')),
    auditSite(client, site.url('/'), {}, stubLabMeter),
  ]);
});

afterAll(async () => {
  await client?.close();
  await site?.close();
});

describe('scores of a hand-computed audit', () => {
  it('applies exactly the checks of the hand count, with the same pages affected', () => {
    const byCategory = {} as Record<Category, Record<string, [number, number]>>;
    for (const a of plain.outcome.aggregates)
      (byCategory[a.category] ??= {})[a.code] = [a.affectedPages, a.applicablePages];
    expect(byCategory).toEqual(HAND_CHECKS);
  });

  it('scores every category and the whole audit as computed by hand', () => {
    expect(plain.outcome.scores).toEqual(HAND_SCORES);
    expect(plain.outcome.breakdown).toMatchObject({ health: 100, htmlPages: 1, pagesWithCritical: 0, blockers: [] });
    // What takes most off the overall score first (points x category weight); TECH_STATUS_4XX costs nothing itself.
    expect(plain.outcome.breakdown.costs.map((c) => [c.code, c.points])).toEqual([
      ['LINKS_INTERNAL_BROKEN', 35],
      ['CONTENT_H1_MISSING', 30],
      ['TECH_HTTP_PAGE', 15],
      ['META_TITLE_TOO_SHORT', 3],
      ['PERF_IMAGE_NO_DIMENSIONS', 3],
      ['TECH_LLMS_TXT_MISSING', 0.5],
    ]);
    expect(plain.outcome.breakdown.costs[0].fixes).toEqual({
      count: 1,
      listed: [{ cause: site.url('/missing'), pages: 1 }],
      places: 1,
    });
  });
});

describe('lab metrics through the engine (stub LabMeter; real measurement: lab-vitals.test.ts)', () => {
  it('measures the start URL only (the one other page answers 404)', () => {
    expect(labRequests).toEqual([[site.url('/')]]);
    expect(lab.outcome.vitals.map((v) => [v.url, v.source, v.device])).toEqual([[site.url('/'), 'LAB', 'mobile']]);
  });

  it.each([
    // LCP 4,500 > 4,000 ms (poor): WARNING; INP 300 > 200 ms and FCP 2,000 > 1,800 ms (needs improvement):
    // NOTICE; page weight 3,000,000 B > 2,667 KiB (2,731,008 B): NOTICE; CLS 0.05 and TBT 100 ms pass.
    ['PERF_LCP', 'WARNING'],
    ['PERF_INP', 'NOTICE'],
    ['PERF_FCP', 'NOTICE'],
    ['PERF_PAGE_WEIGHT', 'NOTICE'],
    ['PERF_CLS', null],
    ['PERF_TBT', null],
  ] as const)('%s is reported with severity %s', (code, severity) => {
    const aggregate = lab.outcome.aggregates.find((a) => a.code === code);
    expect(aggregate?.applicablePages).toBe(1);
    if (severity === null) {
      expect(aggregate?.affectedPages).toBe(0);
      expect(reportedUrls(lab, code)).toEqual([]);
    } else {
      expect(aggregate?.affectedPages).toBe(1);
      expect(aggregate?.severity).toBe(severity);
      expect(reportedUrls(lab, code)).toEqual([site.url('/')]);
    }
  });

  it('scores performance the Lighthouse way when lab metrics exist, other categories unchanged', () => {
    const { performance, ...others } = lab.outcome.scores;
    const { performance: checkBased, overall: _o1, ...plainOthers } = plain.outcome.scores;
    const { overall: _o2, ...labOthers } = others;
    expect(labOthers).toEqual(plainOthers);
    // Lighthouse's score from the lab metrics, minus the category's costs its metrics do not already weigh.
    const { labPerformance, costs } = lab.outcome.breakdown;
    expect(labPerformance).toBe(lab.outcome.vitals[0].performanceScore);
    const otherCosts = costs.filter((c) => c.category === 'PERFORMANCE').reduce((sum, c) => sum + c.points, 0);
    expect(costs.map((c) => c.code)).not.toContain('PERF_LCP');
    expect(performance).toBe(Math.max(0, Math.round(labPerformance! - otherCosts)));
    expect(performance).not.toBe(checkBased);
    // Without a meter the five lab metrics (and page weight) do not apply at all.
    expect(plain.outcome.aggregates.some((a) => /^PERF_(LCP|CLS|INP|TBT|FCP|PAGE_WEIGHT)$/.test(a.code))).toBe(false);
  });

  it('never measures two URLs of one page: / and /index.html with one text, two URLs with one canonical', async () => {
    // Debian's handbook and Python manual: /index.html is linked from every page, beside /. Here the most linked
    // URLs are /index.html (the same document as /) and /guide-print (whose canonical is /guide).
    const twins = await startFixtureSite({ host: 'twins.test' });
    const o = twins.origin;
    const nav =
      '<nav><a href="/index.html">Home</a> <a href="/guide-print">Guide (print)</a> <a href="/guide">Guide</a></nav>';
    const home = page(o, '/', { canonical: '', nav, bodyExtra: '<p><a href="/a">A</a> <a href="/b">B</a></p>' });
    twins.serve({
      '/': { body: home },
      '/index.html': { body: home },
      '/guide': { body: page(o, '/guide', { nav }) },
      '/guide-print': { body: page(o, '/guide-print', { nav, canonical: canonicalTag(`${o}/guide`) }) },
      '/a': { body: page(o, '/a', { nav }) },
      '/b': { body: page(o, '/b', { nav }) },
    });
    const twinsClient = createFixtureClient(['twins.test']);
    const asked: string[][] = [];
    const meter: LabMeter = async (urls) => {
      asked.push(urls);
      return new Map();
    };
    try {
      await auditSite(twinsClient, twins.url('/'), {}, meter);
      expect(asked).toEqual([[twins.url('/'), twins.url('/guide'), twins.url('/a')]]);
    } finally {
      await twinsClient.close();
      await twins.close();
    }
  });
});
