import { CHECK_DEFINITIONS } from './check-definitions.js';
import type { SiteCheckCode } from './check-catalog.js';
import type { SiteCheckInput } from './check.types.js';
import type { SiteCheckOutput, SiteCheckResult } from './check-results.js';
import { PageSummaryStore } from './page-summary-store.js';
import {
  crawlPageChecks,
  robotsState,
  type SiteContext,
  type SiteEvaluator,
  type SitePassChecks,
} from './site-check-helpers.js';
import { SitePages } from './site-pages.js';

export type { RobotsState, SiteContext, SiteEvaluator } from './site-check-helpers.js';

/**
 * One evaluator per site-scope code, in catalog order: each site-scope definition's `evaluate`
 * (check-definitions.ts). Page-scope codes live in PAGE_EVALUATORS (page-checks.ts); check-evaluators.ts joins both
 * into the registry of every catalog code.
 */
export const SITE_EVALUATORS: Readonly<Record<SiteCheckCode, SiteEvaluator>> = Object.fromEntries(
  CHECK_DEFINITIONS.flatMap((check) => (check.scope === 'site' ? [[check.code, check.evaluate]] : [])),
) as Record<SiteCheckCode, SiteEvaluator>;

/** The page-scope codes the site pass decides again, by what decides each (the definitions' `sitePass`). */
const SITE_PASS: SitePassChecks = {
  linkTargets: new Map(
    CHECK_DEFINITIONS.flatMap((check) =>
      'sitePass' in check && check.sitePass && check.sitePass !== 'sitemapListing'
        ? [[check.sitePass, check.code] as const]
        : [],
    ),
  ),
  sitemapListing:
    CHECK_DEFINITIONS.find((check) => 'sitePass' in check && check.sitePass === 'sitemapListing')?.code ?? null,
};

/**
 * Site-scope checks (robots.txt, sitemap, favicon, HSTS, llms.txt, site-wide noindex) and cross-page
 * checks over page summaries (duplicates, near duplicates, orphans, hreflang return links), plus the
 * page-scope checks that need crawl-wide data: link target statuses (from the crawled pages and
 * `input.linkTargets`), canonical targets and sitemap membership, through the same evaluators as the page
 * pass. Cost is linear in pages and links, except near-duplicate search, which is banded and budgeted
 * (see findNearDuplicates). The pages are read from a PageSummaryStore (the audit engine fills one as it crawls;
 * summaries given as objects are put in one first), and the checks work on its rows and URL ids: what they add to
 * the store's few hundred bytes per page is typed arrays, and the strings and objects of what they report.
 */
export function runSiteChecks(input: SiteCheckInput): SiteCheckOutput {
  const store = input.pages instanceof PageSummaryStore ? input.pages : PageSummaryStore.from(input.pages);
  const pages = new SitePages(store);
  const ctx: SiteContext = { input, pages, robots: robotsState(input) };
  // Each evaluator names its own code (check-evaluators.test.ts holds every one to its definition's).
  const site = (Object.keys(SITE_EVALUATORS) as SiteCheckCode[]).map(
    (code) => SITE_EVALUATORS[code](ctx) as SiteCheckResult,
  );
  // The page pass's evaluators are the definitions' own, keyed by their codes: the codes are the catalog's.
  return { site, pages: crawlPageChecks(input, pages, SITE_PASS) as SiteCheckOutput['pages'] };
}
