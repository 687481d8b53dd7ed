/**
 * Scores of a whole audit, computed by hand (score-formula.ts, CHECKS.md "Scoring") for a site small
 * enough to list every applicable check, then asserted exactly; and the engine's use of lab metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabMeter } from '../../src/audits/audit-engine.js';
import type { SafeHttpClient } from '../../src/platform/safe-http/index.js';
import { SEVERITY_WEIGHTS, type Category } from '../../src/seo/checks/index.js';
import {
  auditSite,
  createFixtureClient,
  reportedUrls,
  startFixtureSite,
  tinySite,
  type AuditRun,
  type RunningSite,
} from '../fixtures/sites/index.js';

/*
 * The tiny site: / (200, HTML: title "Short title", no <h1>, an <img> without width/height, links to
 * itself and to /missing) and /missing (404). robots.txt allows all and names a sitemap listing only /;
 * /favicon.ico answers 200; /llms.txt is missing. http, so TECH_HTTP_PAGE fails on both responses.
 * HTML checks apply to / only; status, redirect, timeout and TTFB checks to both pages.
 *
 * weight: CRITICAL 10, WARNING 5, NOTICE 1. category = round(100 * Σ w·passRate / Σ w).
 *
 * META (/ only; hreflang checks and the canonical/Link-header mismatch do not apply)
 *   CRITICAL TITLE_MISSING                                                                    10
 *   WARNING  TITLE_TOO_LONG TITLE_MULTIPLE TITLE_DUPLICATE DESCRIPTION_MISSING
 *            DESCRIPTION_MULTIPLE DESCRIPTION_DUPLICATE TAGS_IN_BODY VIEWPORT_MISSING
 *            VIEWPORT_NO_ZOOM LANG_MISSING LANG_INVALID JSONLD_INVALID JSONLD_REQUIRED_MISSING  13 x 5 = 65
 *   NOTICE   TITLE_TOO_SHORT (fails 1/1) DESCRIPTION_TOO_SHORT DESCRIPTION_TOO_LONG
 *            CHARSET_MISSING DOCTYPE_MISSING FAVICON_MISSING OPEN_GRAPH_MISSING TWITTER_CARD    8 x 1 = 8
 *   Σw = 83, lost 1 x 1          -> 100 * 82 / 83 = 98.80  -> 99
 *
 * CONTENT (/ only; its image answers 200, so IMAGE_BROKEN applies and passes)
 *   WARNING  H1_MISSING (fails 1/1) THIN DUPLICATE IMAGE_ALT_MISSING IMAGE_BROKEN               5 x 5 = 25
 *   NOTICE   H1_MULTIPLE HEADING_SKIP NEAR_DUPLICATE IMAGE_ALT_TOO_LONG LINK_TEXT_GENERIC
 *            DUPLICATE_ID LOW_TEXT_RATIO                                                      7 x 1 = 7
 *   Σw = 32, lost 5 x 1          -> 100 * 27 / 32 = 84.38  -> 84
 *
 * LINKS (no external link: EXTERNAL_BROKEN does not apply; the sitemap lists only the start URL:
 * ORPHAN does not apply; http page: HTTPS_TO_HTTP does not apply)
 *   CRITICAL INTERNAL_BROKEN (fails 1/1), REDIRECT_LOOP (0/2)                                 2 x 10 = 20
 *   WARNING  TO_REDIRECT REDIRECT_CHAIN (0/2) UNCRAWLABLE LOCALHOST                            4 x 5 = 20
 *   NOTICE   DEAD_END TOO_MANY INTERNAL_NOFOLLOW DEPTH_HIGH                                    4 x 1 = 4
 *   Σw = 44, lost 10 x 1         -> 100 * 34 / 44 = 77.27  -> 77
 *
 * TECHNICAL (http: MIXED_CONTENT and HSTS_MISSING do not apply; no Link header: no CANONICAL_MISMATCH)
 *   CRITICAL STATUS_4XX (fails 1/2), STATUS_5XX (0/2), TIMEOUT (0/2), PAGE_FETCH_FAILED (0/2),
 *            HTTP_PAGE (fails 2/2), NOINDEX_SITEWIDE, ROBOTS_UNREACHABLE, ROBOTS_BLOCKS_ALL    8 x 10 = 80
 *   WARNING  ROBOTS_MISSING ROBOTS_INVALID SITEMAP_MISSING SITEMAP_INVALID SITEMAP_NON_INDEXABLE
 *            SITEMAP_BLOCKED_BY_ROBOTS CANONICAL_MULTIPLE CANONICAL_RELATIVE CANONICAL_TO_BROKEN
 *            RESOURCE_BROKEN (the favicon answers) RESOURCE_PRIVATE_ADDRESS HTML_TOO_LARGE
 *            AI_SEARCH_BLOCKED                                                               13 x 5 = 65
 *   NOTICE   NOINDEX BLOCKED_BY_ROBOTS URL_UPPERCASE URL_UNDERSCORE URL_TOO_LONG
 *            LLMS_TXT_MISSING (fails)                                                         6 x 1 = 6
 *   Σw = 151, lost 10 x 0.5 + 10 x 1 + 1 x 1 = 16 -> 100 * 135 / 151 = 89.40 -> 89
 *
 * PERFORMANCE (no lab metrics: the check formula; LCP/CLS/INP/TBT/FCP/PAGE_WEIGHT do not apply)
 *   WARNING  TTFB (0/2) DOM_SIZE IMAGE_TOO_LARGE                                               3 x 5 = 15
 *   NOTICE   IMAGE_NO_DIMENSIONS (fails 1/1) NO_COMPRESSION RENDER_BLOCKING NO_CACHE_HEADERS   4 x 1 = 4
 *   Σw = 19, lost 1              -> 100 * 18 / 19 = 94.74  -> 95
 *
 * OVERALL = round((20*99 + 20*84 + 20*77 + 25*89 + 15*95) / 100) = round(88.50) = 89; no blocker fires
 * and the start URL answers 200, so no cap.
 */
const HAND_SCORES = { overall: 89, meta: 99, content: 84, links: 77, technical: 89, performance: 95 };

/** The hand list above: every applicable check, with [affected, applicable] pages. */
const HAND_CHECKS: Record<Category, Record<string, [number, number]>> = {
  META: {
    META_TITLE_MISSING: [0, 1],
    META_TITLE_TOO_SHORT: [1, 1],
    META_TITLE_TOO_LONG: [0, 1],
    META_TITLE_MULTIPLE: [0, 1],
    META_TITLE_DUPLICATE: [0, 1],
    META_DESCRIPTION_MISSING: [0, 1],
    META_DESCRIPTION_TOO_SHORT: [0, 1],
    META_DESCRIPTION_TOO_LONG: [0, 1],
    META_DESCRIPTION_MULTIPLE: [0, 1],
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
    META_JSONLD_REQUIRED_MISSING: [0, 1],
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
  },
  TECHNICAL: {
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
    TECH_CANONICAL_MULTIPLE: [0, 1],
    TECH_CANONICAL_RELATIVE: [0, 1],
    TECH_CANONICAL_TO_BROKEN: [0, 1],
    TECH_URL_UPPERCASE: [0, 1],
    TECH_URL_UNDERSCORE: [0, 1],
    TECH_URL_TOO_LONG: [0, 1],
    TECH_HTTP_PAGE: [2, 2],
    TECH_HTML_TOO_LARGE: [0, 1],
    TECH_AI_SEARCH_BLOCKED: [0, 1],
    TECH_LLMS_TXT_MISSING: [1, 1],
    TECH_SITEMAP_BLOCKED_BY_ROBOTS: [0, 1],
    TECH_RESOURCE_BROKEN: [0, 1],
    TECH_RESOURCE_PRIVATE_ADDRESS: [0, 1],
  },
  PERFORMANCE: {
    PERF_TTFB: [0, 2],
    PERF_DOM_SIZE: [0, 1],
    PERF_IMAGE_TOO_LARGE: [0, 1],
    PERF_IMAGE_NO_DIMENSIONS: [1, 1],
    PERF_NO_COMPRESSION: [0, 1],
    PERF_RENDER_BLOCKING: [0, 1],
    PERF_NO_CACHE_HEADERS: [0, 1],
  },
};

/** Weight sums per category from the comment, to catch a severity that changed under the hand count. */
const HAND_WEIGHTS: Record<Category, number> = { META: 83, CONTENT: 32, LINKS: 44, TECHNICAL: 151, PERFORMANCE: 19 };

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
    for (const category of Object.keys(HAND_WEIGHTS) as Category[]) {
      const weights = plain.outcome.aggregates
        .filter((a) => a.category === category)
        .reduce((sum, a) => sum + SEVERITY_WEIGHTS[a.severity], 0);
      expect(weights, category).toBe(HAND_WEIGHTS[category]);
    }
  });

  it('scores every category and the whole audit as computed by hand', () => {
    expect(plain.outcome.scores).toEqual(HAND_SCORES);
  });
});

describe('lab metrics through the engine (stub LabMeter; real measurement: lab-vitals.test.ts)', () => {
  it('measures the start URL only (the one other page answers 404)', () => {
    expect(labRequests).toEqual([[site.url('/')]]);
    expect(lab.outcome.vitals.map((v) => [v.url, v.source, v.device])).toEqual([[site.url('/'), 'LAB', 'mobile']]);
  });

  it.each([
    // LCP 4,500 > 4,000 ms: CRITICAL; INP 300 > 200 ms and FCP 2,000 > 1,800 ms: WARNING;
    // page weight 3,000,000 B > 2,667 KiB (2,731,008 B): WARNING; CLS 0.05 and TBT 100 ms pass.
    ['PERF_LCP', 'CRITICAL'],
    ['PERF_INP', 'WARNING'],
    ['PERF_FCP', 'WARNING'],
    ['PERF_PAGE_WEIGHT', 'WARNING'],
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
    expect(performance).toBe(lab.outcome.vitals[0].performanceScore);
    expect(performance).not.toBe(checkBased);
    // Without a meter the five lab metrics (and page weight) do not apply at all.
    expect(plain.outcome.aggregates.some((a) => /^PERF_(LCP|CLS|INP|TBT|FCP|PAGE_WEIGHT)$/.test(a.code))).toBe(false);
  });
});
