/**
 * Every check of the catalog, end to end: fixture sites served on 127.0.0.1 are audited by the real
 * crawler and engine (runAuditEngine through the platform's safe HTTP client), and each code must be
 * reported on exactly the URLs built to fail it — and apply, yet stay silent, on a site built to pass it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SafeHttpClient } from '../../src/platform/safe-http/index.js';
import {
  CHECK_CATALOG,
  CHECK_DEFINITIONS,
  CHECK_THRESHOLDS,
  getCheck,
  type CheckCode,
  type CheckNeeds,
  type CheckSpec,
} from '../../src/seo/checks/index.js';
import { blockerNotices } from '../../src/seo/scoring/index.js';
import {
  AUDITED_SITES,
  LONG_URL_PATH,
  auditSite,
  createFixtureClient,
  reportedUrls,
  startFixtureSites,
  type AuditRun,
  type AuditedSite,
  type FixtureSites,
} from '../fixtures/sites/index.js';

/**
 * Codes not asserted on fixture sites: those that need a browser (their definitions' `needs`), which an html-mode
 * audit of a fixture site never applies. Other suites cover them, as each reason says.
 */
const NOT_ON_FIXTURE_SITES: Readonly<Record<CheckNeeds, string>> = {
  LAB_BROWSER:
    'needs a browser: a lab measurement in Chromium (lab-vitals.test.ts covers the measurement, and ' +
    "audit-checks-scores.test.ts how the engine turns a LabMeter's numbers into these checks, with a stub meter)",
  RENDERING_MODE:
    'needs a browser: the raw HTML compared with the page a script rendered (covered by audit-rendering.test.ts)',
};
const EXCEPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  (CHECK_DEFINITIONS as readonly CheckSpec[]).flatMap((check) =>
    check.needs ? [[check.code, NOT_ON_FIXTURE_SITES[check.needs]]] : [],
  ),
);

/**
 * Every document the crawler got a non-error response for (TECH_HTTP_PAGE fails on all of them on an http site; a 4xx
 * or 5xx answer is a broken link's target, not a page, and a redirecting URL's row is the redirect, not a document).
 */
const EVERY_RESPONSE = 'every response';

interface Expectation {
  /** Site -> exact paths reported (pages, or the file a site check is about). */
  fails: Partial<Record<AuditedSite, readonly string[] | typeof EVERY_RESPONSE>>;
  /** Sites where the check applies and passes; default: the clean site. */
  passes?: readonly AuditedSite[];
}

const EXPECTED: Partial<Record<CheckCode, Expectation>> = {
  // META
  META_TITLE_MISSING: { fails: { failing: ['/meta/no-basics', '/meta/no-title'] } },
  META_BASICS_MISSING: { fails: { failing: ['/meta/no-basics'] } },
  META_TITLE_TOO_SHORT: { fails: { failing: ['/meta/short-title'] } },
  META_TITLE_TOO_LONG: { fails: { failing: ['/meta/long-title'] } },
  META_TITLE_MULTIPLE: { fails: { failing: ['/meta/two-titles'] } },
  META_TITLE_DUPLICATE: { fails: { failing: ['/meta/dup-title-a', '/meta/dup-title-b'] } },
  META_DESCRIPTION_MISSING: { fails: { failing: ['/meta/no-basics', '/meta/no-description'] } },
  META_DESCRIPTION_TOO_SHORT: { fails: { failing: ['/meta/description-is-title', '/meta/short-description'] } },
  META_DESCRIPTION_TOO_LONG: { fails: { failing: ['/meta/long-description'] } },
  META_DESCRIPTION_MULTIPLE: { fails: { failing: ['/meta/two-descriptions'] } },
  META_DESCRIPTION_DUPLICATE: { fails: { failing: ['/meta/dup-description-a', '/meta/dup-description-b'] } },
  META_DESCRIPTION_SAME_AS_TITLE: { fails: { failing: ['/meta/description-is-title'] } },
  META_TAGS_IN_BODY: { fails: { failing: ['/meta/tags-in-body'] } },
  META_VIEWPORT_MISSING: { fails: { failing: ['/meta/no-viewport'] } },
  META_VIEWPORT_NO_ZOOM: { fails: { failing: ['/meta/viewport-no-zoom'] } },
  META_LANG_MISSING: { fails: { failing: ['/meta/no-lang'] } },
  META_LANG_INVALID: { fails: { failing: ['/meta/bad-lang'] } },
  META_CHARSET_MISSING: { fails: { failing: ['/meta/no-charset'] } },
  META_DOCTYPE_MISSING: { fails: { failing: ['/meta/no-doctype'] } },
  META_FAVICON_MISSING: { fails: { failing: ['/favicon.ico'] } },
  META_OPEN_GRAPH_MISSING: { fails: { failing: ['/meta/no-open-graph'] } },
  META_TWITTER_CARD_MISSING: { fails: { failing: ['/meta/no-twitter-card'] } },
  META_JSONLD_INVALID: { fails: { failing: ['/meta/jsonld-invalid'] } },
  META_JSONLD_REQUIRED_MISSING: { fails: { failing: ['/meta/jsonld-incomplete'] } },
  META_HREFLANG_INVALID: { fails: { failing: ['/meta/hreflang-invalid'] } },
  META_HREFLANG_RELATIVE: { fails: { failing: ['/meta/hreflang-relative'] } },
  META_HREFLANG_NO_SELF: { fails: { failing: ['/meta/hreflang-no-self'] } },
  META_HREFLANG_NO_RETURN: { fails: { failing: ['/meta/hreflang-no-return'] } },
  META_HREFLANG_NO_X_DEFAULT: { fails: { failing: ['/meta/hreflang-no-x-default'] } },
  // Structured data, hreflang, viewport, social (structured-pages.ts; their traps pages must stay silent)
  META_JSONLD_NO_CONTEXT: { fails: { failing: ['/schema/no-context'] } },
  META_JSONLD_TYPE_MISSING: { fails: { failing: ['/schema/no-type'] } },
  META_JSONLD_ORGANIZATION_INCOMPLETE: { fails: { failing: ['/schema/organization-incomplete'] } },
  META_JSONLD_ARTICLE_INCOMPLETE: { fails: { failing: ['/schema/article-incomplete'] } },
  META_JSONLD_PRODUCT_NO_OFFER: { fails: { failing: ['/schema/product-no-offer'] } },
  META_JSONLD_BREADCRUMB_INVALID: { fails: { failing: ['/schema/breadcrumb-invalid'] } },
  META_JSONLD_FAQ_INVALID: { fails: { failing: ['/schema/faq-invalid'] } },
  META_JSONLD_DATE_INVALID: { fails: { failing: ['/schema/date-invalid'] } },
  META_HREFLANG_DUPLICATE: { fails: { failing: ['/intl/hreflang-duplicate'] } },
  META_HREFLANG_TO_BROKEN: { fails: { failing: ['/intl/hreflang-to-broken'] } },
  META_HREFLANG_TO_NON_INDEXABLE: { fails: { failing: ['/intl/hreflang-to-canonicalized'] } },
  META_HREFLANG_LANG_MISMATCH: { fails: { failing: ['/intl/lang-mismatch'] } },
  META_VIEWPORT_NOT_RESPONSIVE: { fails: { failing: ['/mobile/fixed-viewport'] } },
  META_VIEWPORT_MULTIPLE: { fails: { failing: ['/mobile/two-viewports'] } },
  META_OG_INCOMPLETE: { fails: { failing: ['/social/og-incomplete'] } },
  META_OG_IMAGE_RELATIVE: { fails: { failing: ['/social/og-image-relative'] } },
  META_OG_URL_MISMATCH: { fails: { failing: ['/social/og-url-mismatch'] } },
  META_TWITTER_CARD_INVALID: { fails: { failing: ['/social/twitter-card-invalid'] } },
  // CONTENT
  CONTENT_H1_MISSING: { fails: { failing: ['/content/no-h1'] } },
  CONTENT_H1_MULTIPLE: { fails: { failing: ['/content/two-h1'] } },
  CONTENT_HEADING_SKIP: { fails: { failing: ['/content/heading-skip'] } },
  // /content/thin-target is also reached through the redirect /content/thin-moved: reported once.
  // /tech/client-rendered: an app shell read in html mode is thin too (TECH_CLIENT_RENDERED_SUSPECTED).
  CONTENT_THIN: { fails: { failing: ['/content/thin', '/content/thin-target', '/tech/client-rendered'] } },
  CONTENT_DUPLICATE: { fails: { failing: ['/content/dup-a', '/content/dup-b'] } },
  CONTENT_NEAR_DUPLICATE: { fails: { failing: ['/content/near-a', '/content/near-b'] } },
  CONTENT_IMAGE_ALT_MISSING: { fails: { failing: ['/content/img-no-alt'] } },
  CONTENT_IMAGE_ALT_TOO_LONG: { fails: { failing: ['/content/img-long-alt'] } },
  CONTENT_IMAGE_BROKEN: { fails: { failing: ['/resources/broken-image'] } },
  CONTENT_LINK_TEXT_GENERIC: { fails: { failing: ['/content/generic-link'] } },
  CONTENT_DUPLICATE_ID: { fails: { failing: ['/content/duplicate-id'] } },
  CONTENT_LOW_TEXT_RATIO: { fails: { failing: ['/content/low-text-ratio'] } },
  // Same h1, each pair: dup-* and near-* (also duplicate text) and h1-dup-* (different text).
  CONTENT_H1_DUPLICATE: {
    fails: {
      failing: [
        '/content/dup-a',
        '/content/dup-b',
        '/content/h1-dup-a',
        '/content/h1-dup-b',
        '/content/near-a',
        '/content/near-b',
      ],
    },
  },
  CONTENT_IMAGE_ALT_FILENAME: { fails: { failing: ['/images/alt-filename'] } },
  CONTENT_IMAGE_EMPTY_SRC: { fails: { failing: ['/images/empty-src'] } },
  CONTENT_PLACEHOLDER_TEXT: { fails: { failing: ['/content/placeholder-copy'] } },
  // LINKS
  // /links/broken links a 404, a 500, a timeout and a redirect loop: all four are failures.
  LINKS_INTERNAL_BROKEN: { fails: { failing: ['/links/broken'] } },
  LINKS_PAGINATION_BROKEN: { fails: { failing: ['/pagination/broken'] } },
  LINKS_PAGINATION_NOINDEX: { fails: { failing: ['/pagination/noindex'] } },
  // /links/closed-port links to a loopback port nothing listens on: refused at connect, broken all the same.
  LINKS_EXTERNAL_BROKEN: { fails: { failing: ['/links/closed-port', '/links/external'] } },
  // noHsts: /http-link links the site's own http URL, which redirects to https.
  LINKS_TO_REDIRECT: { fails: { failing: ['/links/redirects'], noHsts: ['/http-link'] } },
  // A two-hop loop (/loop-a -> /loop-b -> /loop-a) is also two hops of redirects: both codes fire on it.
  LINKS_REDIRECT_CHAIN: { fails: { failing: ['/chain/1', '/loop-a'] } },
  LINKS_REDIRECT_LOOP: { fails: { failing: ['/loop-a'] } },
  // /listed/gone and /listed/error are in the sitemap and linked from no page, like /orphan.
  LINKS_ORPHAN: { fails: { failing: ['/listed/error', '/listed/gone', '/orphan'] } },
  LINKS_DEAD_END: { fails: { failing: ['/links/dead-end'] } },
  LINKS_TOO_MANY: { fails: { failing: ['/links/too-many'] } },
  LINKS_INTERNAL_NOFOLLOW: { fails: { failing: ['/links/nofollow'] } },
  LINKS_HTTPS_TO_HTTP: { fails: { noHsts: ['/http-link'] } },
  LINKS_UNCRAWLABLE: { fails: { failing: ['/links/uncrawlable'] } },
  LINKS_DEPTH_HIGH: { fails: { failing: ['/deep/5'] } },
  LINKS_LOCALHOST: { fails: { failing: ['/links/closed-port', '/links/localhost'] } },
  // /chain/1 and /loop-a redirect with 302; /old and /content/thin-moved with 301.
  LINKS_TEMPORARY_REDIRECT: { fails: { failing: ['/chain/1', '/loop-a'] } },
  LINKS_NO_ANCHOR_TEXT: { fails: { failing: ['/links/no-text'] } },
  // The home page links every page, /canonical/broken and /links/variant (canonical elsewhere) among them.
  LINKS_TO_NON_CANONICAL: { fails: { failing: ['/', '/links/to-non-canonical'] } },
  // The home page links the noindex pages; on the noindex site both pages link each other.
  LINKS_TO_NOINDEX: { fails: { failing: ['/', '/links/to-noindex'], noindex: ['/', '/about'] } },
  // TECHNICAL
  // /missing and /server-error are linked from /links/broken: charged once, as its broken links
  // (LINKS_INTERNAL_BROKEN); the sitemap-only ones have no broken link to report them, so their own status does.
  // Every failing URL, linked or not: the linked ones are charged once, as their broken links' fix.
  TECH_STATUS_4XX: { fails: { failing: ['/listed/gone', '/missing'] } },
  TECH_STATUS_5XX: { fails: { failing: ['/listed/error', '/server-error'] } },
  TECH_TIMEOUT: { fails: { failing: ['/slow'] } },
  PAGE_FETCH_FAILED: { fails: { failing: ['/slow', '/loop-a'] } },
  TECH_NOINDEX: {
    fails: { failing: ['/pagination/noindex', '/tech/noindex-header', '/tech/noindex-meta'], noindex: ['/', '/about'] },
  },
  TECH_NOINDEX_SITEWIDE: { fails: { noindex: ['/'] }, passes: ['clean', 'failing'] },
  TECH_ROBOTS_MISSING: { fails: { bare: ['/robots.txt'] }, passes: ['clean', 'robotsError'] },
  TECH_ROBOTS_UNREACHABLE: {
    fails: { robotsError: ['/robots.txt'], robotsTimeout: ['/robots.txt'] },
    passes: ['clean', 'bare'],
  },
  TECH_ROBOTS_BLOCKS_ALL: { fails: { blocksAll: ['/robots.txt'] }, passes: ['clean', 'failing'] },
  TECH_ROBOTS_INVALID: { fails: { failing: ['/robots.txt'] } },
  TECH_BLOCKED_BY_ROBOTS: { fails: { failing: ['/links/blocked'] } },
  TECH_SITEMAP_MISSING: { fails: { bare: ['/sitemap.xml'] } },
  // The failing site's sitemap lists a URL of another host; brokenSitemap's is not well-formed XML.
  TECH_SITEMAP_INVALID: { fails: { failing: ['/sitemap.xml'], brokenSitemap: ['/sitemap.xml'] } },
  TECH_SITEMAP_NON_INDEXABLE: {
    fails: {
      failing: ['/canonical/broken', '/listed/error', '/listed/gone', '/missing', '/old', '/tech/noindex-meta'],
      noindex: ['/', '/about'],
    },
  },
  // Listed in the sitemap, disallowed by robots.txt: blocked — and not an orphan (LINKS_ORPHAN stays on the sitemap's
  // unlinked URLs).
  TECH_SITEMAP_BLOCKED_BY_ROBOTS: { fails: { failing: ['/private/listed'] } },
  TECH_CANONICAL_MULTIPLE: { fails: { failing: ['/canonical/multiple'] } },
  TECH_CANONICAL_RELATIVE: { fails: { failing: ['/canonical/relative'] } },
  TECH_CANONICAL_MISMATCH: { fails: { failing: ['/canonical/mismatch'] } },
  TECH_CANONICAL_MISSING: { fails: { failing: ['/manual/', '/manual/index.html'] } },
  TECH_CANONICAL_TO_BROKEN: { fails: { failing: ['/canonical/broken'] } },
  TECH_CANONICAL_INVALID: { fails: { failing: ['/canonical/file'] } },
  TECH_CANONICAL_OTHER_HOST: { fails: { failing: ['/canonical/other-host'] } },
  TECH_AMP_LINK_BROKEN: { fails: { failing: ['/amp/link-broken'] } },
  TECH_AMP_NO_CANONICAL: { fails: { failing: ['/amp/no-canonical'] } },
  TECH_URL_UPPERCASE: { fails: { failing: ['/tech/Upper-Case'] } },
  TECH_URL_UNDERSCORE: { fails: { failing: ['/tech/under_score'] } },
  TECH_URL_TOO_LONG: { fails: { failing: [LONG_URL_PATH] } },
  TECH_HTTP_PAGE: {
    fails: {
      failing: EVERY_RESPONSE,
      bare: ['/', '/about'],
      // Opted out of robots.txt (ROBOTS_OPT_OUT): crawled like any site.
      robotsError: ['/', '/about'],
      robotsTimeout: ['/', '/about'],
      blocksAll: ['/', '/about'],
      brokenSitemap: ['/', '/about'],
      noindex: ['/', '/about'],
    },
    passes: ['clean', 'noHsts'],
  },
  TECH_MIXED_CONTENT: { fails: { noHsts: ['/mixed'] } },
  TECH_HSTS_MISSING: { fails: { noHsts: ['/'] } },
  // A stylesheet that answers 404, a script on a closed port (refused). /perf/render-blocking's script answers.
  TECH_RESOURCE_BROKEN: { fails: { failing: ['/resources/broken-stylesheet', '/resources/closed-port-script'] } },
  TECH_RESOURCE_PRIVATE_ADDRESS: { fails: { failing: ['/resources/private-address'] } },
  TECH_HTML_TOO_LARGE: { fails: { failing: ['/tech/large-html', '/tech/huge-html'] } },
  TECH_AI_SEARCH_BLOCKED: { fails: { failing: ['/robots.txt'], blocksAll: ['/robots.txt'] } },
  TECH_LLMS_TXT_MISSING: { fails: { failing: ['/llms.txt'] } },
  TECH_CLIENT_RENDERED_SUSPECTED: { fails: { failing: ['/tech/client-rendered'] } },
  // Security headers are judged on https start pages only: noHsts sends none, weakHeaders weak ones.
  TECH_CSP_MISSING: { fails: { noHsts: ['/'], weakHeaders: ['/'] } },
  TECH_CONTENT_TYPE_OPTIONS_MISSING: { fails: { noHsts: ['/'], weakHeaders: ['/'] } },
  TECH_CLICKJACKING_UNPROTECTED: { fails: { noHsts: ['/'], weakHeaders: ['/'] } },
  TECH_HSTS_SHORT: { fails: { weakHeaders: ['/'] } },
  // weakHeaders' /about deletes a cookie (Max-Age=0): not counted. The clean site's cookie is Secure.
  TECH_COOKIE_INSECURE: { fails: { weakHeaders: ['/'] } },
  TECH_META_REFRESH: { fails: { failing: ['/tech/meta-refresh'] } },
  TECH_SOFT_404: { fails: { failing: ['/tech/soft-404'] } },
  TECH_URL_DOUBLE_SLASH: { fails: { failing: ['/tech//double-slash'] } },
  TECH_URL_NON_ASCII: { fails: { failing: ['/tech/caf%C3%A9'] } },
  TECH_URL_SESSION_ID: { fails: { failing: ['/tech/session?PHPSESSID=9f1c2ab47e5d3c60'] } },
  // PERFORMANCE
  PERF_TTFB: { fails: { failing: ['/perf/slow-ttfb'] } },
  PERF_DOM_SIZE: { fails: { failing: ['/perf/dom-size'] } },
  PERF_IMAGE_TOO_LARGE: { fails: { failing: ['/perf/large-image'] } },
  PERF_IMAGE_NO_DIMENSIONS: { fails: { failing: ['/perf/no-dimensions'] } },
  PERF_NO_COMPRESSION: { fails: { failing: ['/perf/uncompressed'] } },
  PERF_RENDER_BLOCKING: { fails: { failing: ['/perf/render-blocking'] } },
  PERF_NO_CACHE_HEADERS: { fails: { failing: ['/perf/no-cache'] } },
  // /perf/large-image is a 250 KiB PNG; /images/modern-format's 150 KiB WebP is the trap.
  PERF_IMAGE_LEGACY_FORMAT: { fails: { failing: ['/images/legacy-format', '/perf/large-image'] } },
  PERF_LCP_IMAGE_LAZY: { fails: { failing: ['/images/lcp-lazy'] } },
  PERF_IMAGES_NOT_LAZY: { fails: { failing: ['/images/not-lazy'] } },
};

/**
 * Sites whose robots.txt shuts the crawler out: under RFC 9309 such an audit fails without fetching a page
 * (audit-outcomes.test.ts), so these are audited as a project that opted out of robots.txt, to report on it.
 */
const ROBOTS_OPT_OUT: ReadonlySet<AuditedSite> = new Set(['robotsError', 'robotsTimeout', 'blocksAll']);

const ASSERTED = CHECK_CATALOG.map((check) => check.code).filter((code) => !(code in EXCEPTIONS));

/** The expectation of an asserted code ('asserts every catalog code…' holds EXPECTED to the asserted codes). */
function expectationOf(code: CheckCode): Expectation {
  const expectation = EXPECTED[code];
  if (!expectation) throw new Error(`${code} has no expectation in EXPECTED`);
  return expectation;
}

let fixtures: FixtureSites;
let client: SafeHttpClient;
const runs = {} as Record<AuditedSite, AuditRun>;
/** Each run less the PERF_TTFB reports that the machine's load, not the site, caused (see `loadSlowed`). */
const asBuilt = {} as Record<AuditedSite, AuditRun>;

/**
 * PERF_TTFB judges a time the crawler measures, and the suite runs its files side by side on two cores, with the
 * crawler and the fixture servers on one event loop: under load any page can be measured past the 800 ms band (a CI
 * run once saw three more on the failing site). Such a report is right about what was measured, so it is taken out
 * of the designed-versus-reported comparisons here, and the test 'PERF_TTFB reports beyond its designed pages only
 * pages measured past the band' holds each one to its measurement.
 */
function loadSlowed(site: AuditedSite): string[] {
  const designed = new Set(expectedUrls(site, expectationOf('PERF_TTFB').fails[site] ?? []));
  return reportedUrls(runs[site], 'PERF_TTFB').filter((url) => !designed.has(url));
}

function withoutLoadSlowed(site: AuditedSite): AuditRun {
  const run = runs[site];
  const slowed = new Set(loadSlowed(site));
  if (slowed.size === 0) return run;
  const isSlowed = (o: { code: string; url: string }) => o.code === 'PERF_TTFB' && slowed.has(o.url);
  const aggregates = run.outcome.aggregates.map((a) =>
    a.code === 'PERF_TTFB' ? { ...a, affectedPages: a.affectedPages - slowed.size } : a,
  );
  const ttfb = aggregates.find((a) => a.code === 'PERF_TTFB');
  return {
    ...run,
    occurrences: run.occurrences.filter((o) => !isSlowed(o)),
    outcome: {
      ...run.outcome,
      aggregates,
      issues: run.outcome.issues
        .filter((i) => i.code !== 'PERF_TTFB' || (ttfb?.affectedPages ?? 0) > 0)
        .map((i) => (i.code === 'PERF_TTFB' && ttfb ? ttfb : i)),
    },
  };
}

beforeAll(async () => {
  fixtures = await startFixtureSites();
  client = createFixtureClient(fixtures.hosts, {}, { ca: fixtures.certificate.cert });
  // Independent sites, audited concurrently: the slow cases (timeouts) overlap.
  await Promise.all(
    AUDITED_SITES.map(async (name) => {
      runs[name] = await auditSite(
        client,
        fixtures.sites[name].url('/'),
        ROBOTS_OPT_OUT.has(name) ? { respectRobots: false } : {},
      );
    }),
  );
  for (const site of AUDITED_SITES) asBuilt[site] = withoutLoadSlowed(site);
});

afterAll(async () => {
  await client?.close();
  await fixtures?.close();
});

function expectedUrls(site: AuditedSite, paths: readonly string[] | typeof EVERY_RESPONSE): string[] {
  if (paths === EVERY_RESPONSE)
    return runs[site].pages
      .filter((p) => p.statusCode !== null && p.statusCode < 400 && p.kind !== 'REDIRECT')
      .map((p) => p.url)
      .sort();
  return paths.map((path) => fixtures.sites[site].url(path)).sort();
}

describe('check catalog coverage', () => {
  it('asserts every catalog code, or names it as an exception with a reason', () => {
    const catalog = CHECK_CATALOG.map((check) => check.code).sort();
    const covered = [...Object.keys(EXPECTED), ...Object.keys(EXCEPTIONS)].sort();
    expect(covered).toEqual(catalog);
    expect(Object.keys(EXPECTED).filter((code) => code in EXCEPTIONS)).toEqual([]);
    for (const reason of Object.values(EXCEPTIONS)) expect(reason.length).toBeGreaterThan(20);
  });

  it.each(ASSERTED)('%s is reported exactly where designed and stays silent where designed to pass', (code) => {
    const expectation = expectationOf(code);
    expect(Object.keys(expectation.fails).length).toBeGreaterThan(0);
    for (const [site, paths] of Object.entries(expectation.fails) as [
      AuditedSite,
      readonly string[] | typeof EVERY_RESPONSE,
    ][]) {
      const run = asBuilt[site];
      const urls = expectedUrls(site, paths);
      expect(urls.length, `${code} on ${site}`).toBeGreaterThan(0);
      expect(reportedUrls(run, code), `${code} on ${site}`).toEqual(urls);
      const aggregate = run.outcome.aggregates.find((a) => a.code === code);
      expect(aggregate?.affectedPages, `${code} affected pages on ${site}`).toBe(urls.length);
      expect(run.outcome.issues.map((i) => i.code)).toContain(code);
    }
    for (const site of expectation.passes ?? ['clean']) {
      const run = asBuilt[site];
      const aggregate = run.outcome.aggregates.find((a) => a.code === code);
      // Applicable (evaluated), and passed: not merely absent.
      expect(aggregate?.applicablePages ?? 0, `${code} applies on ${site}`).toBeGreaterThan(0);
      expect(aggregate?.affectedPages, `${code} passes on ${site}`).toBe(0);
      expect(reportedUrls(run, code), `${code} on ${site}`).toEqual([]);
    }
  });

  it.each(AUDITED_SITES)('the %s site reports no code it was not built to fail', (site) => {
    const designed = ASSERTED.filter((code) => expectationOf(code).fails[site] !== undefined).sort();
    const reported = [...new Set(asBuilt[site].occurrences.map((o) => o.code))].sort();
    expect(reported).toEqual(designed);
    expect(asBuilt[site].outcome.issues.map((i) => i.code).sort()).toEqual(designed);
  });

  it('PERF_TTFB reports beyond its designed pages only pages measured past the band', () => {
    const { good: warning } = CHECK_THRESHOLDS.metrics.ttfb;
    for (const site of AUDITED_SITES) {
      for (const url of loadSlowed(site)) {
        const measured = runs[site].pages.find((p) => p.url === url)?.responseTimeMs;
        const occurrence = runs[site].occurrences.find((o) => o.code === 'PERF_TTFB' && o.url === url);
        expect(measured, `${url} measured`).toBeGreaterThan(warning);
        expect(occurrence?.evidence, url).toEqual({ ttfbMs: measured });
      }
    }
  });

  it('records each occurrence once, with the catalog severity unless banded or a noindex the sitemap lists', () => {
    for (const site of AUDITED_SITES) {
      const keys = runs[site].occurrences.map((o) => `${o.code} ${o.url}`);
      expect(keys.length, site).toBe(new Set(keys).size);
      for (const issue of runs[site].outcome.issues) {
        if (getCheck(issue.code).banded) continue;
        // A noindex page its sitemap lists is not intended: CRITICAL (docs/scores.md, severity rule).
        if (issue.code === 'TECH_NOINDEX' && issue.severity === 'CRITICAL') {
          const listed = runs[site].pages.filter((p) => p.url === issue.occurrences[0]?.url);
          expect(listed.length, `${site} ${issue.code}`).toBe(1);
          continue;
        }
        expect(issue.severity).toBe(getCheck(issue.code).severity);
      }
    }
  });
});

describe('why a site check fired (occurrence evidence)', () => {
  const evidence = (site: AuditedSite, code: string) => runs[site].occurrences.find((o) => o.code === code)?.evidence;

  it.each([
    [
      'failing',
      'TECH_SITEMAP_INVALID',
      { reasons: expect.arrayContaining(['1 URLs of other hosts']), errors: [expect.stringMatching(/other\.test/)] },
    ],
    ['brokenSitemap', 'TECH_SITEMAP_INVALID', { reasons: [expect.stringMatching(/does not parse/)] }],
    ['robotsError', 'TECH_ROBOTS_UNREACHABLE', { status: 500, timedOut: false }],
    ['robotsTimeout', 'TECH_ROBOTS_UNREACHABLE', { status: null, timedOut: true }],
    ['bare', 'TECH_ROBOTS_MISSING', { status: 404 }],
    ['bare', 'TECH_SITEMAP_MISSING', { status: 404 }],
    ['failing', 'TECH_ROBOTS_INVALID', { errors: [expect.stringMatching(/^line 3: unknown directive 'Foo'/)] }],
    // OAI-SearchBot by name; blocksAll's `Disallow: /` for * covers all four AI search agents.
    ['failing', 'TECH_AI_SEARCH_BLOCKED', { agents: ['OAI-SearchBot'] }],
    [
      'blocksAll',
      'TECH_AI_SEARCH_BLOCKED',
      { agents: ['OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot', 'Claude-User'] },
    ],
    ['noindex', 'TECH_NOINDEX_SITEWIDE', { noindexPages: 2, htmlPages: 2, share: 1 }],
    ['noHsts', 'TECH_HSTS_MISSING', { header: null }],
    [
      'failing',
      'LINKS_REDIRECT_LOOP',
      {
        chain: [
          expect.stringMatching(/^302 .*\/loop-a$/),
          expect.stringMatching(/^302 .*\/loop-b$/),
          expect.stringMatching(/\/loop-a$/),
        ],
      },
    ],
  ] as const)('%s: %s with %j', (site, code, expected) => {
    expect(evidence(site, code)).toMatchObject(expected);
  });
});

describe('site-wide blockers through the engine (docs/scores.md, Blockers)', () => {
  it('caps a site whose every page is noindex at 50, with the "0 indexable pages" banner', () => {
    const { scores, breakdown } = runs.noindex.outcome;
    expect(scores.overall).toBeLessThanOrEqual(50);
    expect(breakdown.indexability).toEqual({ indexable: 0, noindex: 2, canonicalOtherHost: 0, canonicalSameHost: 0 });
    expect(breakdown.blockers).toEqual(['TECH_NOINDEX_SITEWIDE', 'NO_INDEXABLE_PAGES']);
    expect(blockerNotices(breakdown).map((n) => n.message)).toEqual([
      expect.stringMatching(/^0 indexable pages: every page is noindex\. .*not applicable/),
    ]);
  });

  it('caps a site whose robots.txt blocks all, and leaves an indexable site uncapped', () => {
    expect(runs.blocksAll.outcome.scores.overall).toBeLessThanOrEqual(50);
    expect(blockerNotices(runs.blocksAll.outcome.breakdown)[0].message).toMatch(/^robots\.txt blocks every crawler/);
    expect(runs.clean.outcome.breakdown.blockers).toEqual([]);
  });
});

describe('fixture site behaviour seen through the crawler', () => {
  it('the clean site scores 100 in every category with no issue at all', () => {
    const { outcome } = runs.clean;
    expect(asBuilt.clean.outcome.issues).toEqual([]);
    // A page the machine's load slowed past the TTFB band costs performance (and so overall) points, nothing else.
    const slowed = loadSlowed('clean').length > 0;
    expect(outcome.scores).toEqual({
      overall: slowed ? expect.any(Number) : 100,
      meta: 100,
      content: 100,
      links: 100,
      technical: 100,
      performance: slowed ? expect.any(Number) : 100,
    });
    expect(outcome.site.https).toBe(true);
    // Three pages and the AMP version of /about (reached through its rel=amphtml link).
    expect(runs.clean.pages.map((p) => p.statusCode)).toEqual([200, 200, 200, 200]);
  });

  it('analyses a page over the 5 MiB cap on its first bytes: links at its top followed, reported as too large', () => {
    const run = runs.failing;
    const huge = run.pages.find((p) => p.url.endsWith('/tech/huge-html'));
    expect(huge).toMatchObject({ statusCode: 200, error: null });
    expect(huge?.bytes).toBe(5 * 1024 * 1024);
    expect(run.pages.some((p) => p.url.endsWith('/tech/behind-huge'))).toBe(true);
    expect(fixtures.sites.failing.requests.map((r) => r.path)).not.toContain('/tech/past-the-cap');
    const tooLarge = run.occurrences.find((o) => o.code === 'TECH_HTML_TOO_LARGE' && o.url.endsWith('/huge-html'));
    expect(tooLarge?.evidence).toMatchObject({ analysedBytes: 5 * 1024 * 1024 });
    expect((tooLarge?.evidence as { bytes: number }).bytes).toBeGreaterThanOrEqual(5 * 1024 * 1024);
  });

  it('never requests a URL robots.txt disallows', () => {
    const requested = fixtures.sites.failing.requests.map((r) => r.path);
    expect(requested).toContain('/links/blocked');
    expect(requested).not.toContain('/private/secret');
  });

  // With robots.txt respected these audits fail before any page is fetched (audit-outcomes.test.ts).
  it.each(['blocksAll', 'robotsError', 'robotsTimeout'] as const)(
    'audits a site whose robots.txt is %s when the project opted out of robots.txt, capped as a site-wide blocker',
    (site) => {
      const pages = fixtures.sites[site].requests.filter(
        (r) => r.method === 'GET' && !r.path.startsWith('/robots.txt') && r.path !== '/sitemap.xml',
      );
      expect(pages.map((r) => r.path)).toContain('/');
      expect(runs[site].outcome.scores.overall).toBeLessThanOrEqual(50);
    },
  );

  it('crawls sitemap-only URLs after the linked ones, and the deep chain to depth 5', () => {
    const rows = new Map(runs.failing.pages.map((p) => [p.url.slice(fixtures.sites.failing.origin.length), p]));
    expect(rows.get('/orphan')?.depth).toBe(-1);
    expect(rows.get('/deep/5')?.depth).toBe(5);
    expect(rows.get('/chain/1')?.finalUrl).toBe(fixtures.sites.failing.url('/chain/end'));
    expect(rows.get('/slow')?.statusCode).toBeNull();
  });
});
