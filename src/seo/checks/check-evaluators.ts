import { CHECK_CATALOG, type CheckCode, type PageCheckCode, type SiteCheckCode } from './check-catalog.js';
import { CHECK_DEFINITIONS } from './check-definitions.js';
import { evaluateLinkTargets } from './link-target-checks.js';
import { PAGE_EVALUATORS, type PageEvaluator } from './page-checks.js';
import { sitemapListingOutcome } from './page-indexability.js';
import { SITE_EVALUATORS, type SiteEvaluator } from './site-checks.js';

export type CheckEvaluator =
  | { scope: 'page'; code: PageCheckCode; evaluate: PageEvaluator }
  | { scope: 'site'; code: SiteCheckCode; evaluate: SiteEvaluator };

/**
 * Who decides each catalog code: exactly one evaluator, its definition's `evaluate` (check-definitions.ts), gathered
 * by scope into PAGE_EVALUATORS (page-checks.ts, run per fetched page) and SITE_EVALUATORS (site-checks.ts, run once
 * per crawl). `defineCheck` types `evaluate` by the definition's scope, so a code cannot lack one or have two.
 */
export const CHECK_EVALUATORS: Readonly<Record<CheckCode, CheckEvaluator>> = Object.fromEntries(
  CHECK_CATALOG.map((check): [CheckCode, CheckEvaluator] =>
    check.scope === 'page'
      ? [check.code, { scope: 'page', code: check.code, evaluate: PAGE_EVALUATORS[check.code] }]
      : [check.code, { scope: 'site', code: check.code, evaluate: SITE_EVALUATORS[check.code] }],
  ),
) as Record<CheckCode, CheckEvaluator>;

/** Callers other than the registry's evaluator that decide a code: they must call the code's shared verdict. */
export type OtherCaller = 'headers tool' | 'site pass';

/**
 * Codes decided in a second place, and the one function both places call for the verdict (from the definitions):
 * - the free headers tool (src/seo/headers/header-checks.ts) judges one response with the same response-header
 *   parser and verdicts (src/seo/headers/response-verdicts.ts) as the audit's evaluators (`headersTool`);
 * - the site pass (runSiteChecks) re-evaluates some page-scope codes from page summaries once the crawl knows
 *   every target, through the same functions as the page pass (`sitePass`).
 * Anything not listed here is decided only by its evaluator in CHECK_EVALUATORS.
 */
export const SHARED_VERDICTS = Object.fromEntries(
  CHECK_DEFINITIONS.flatMap((check) => {
    const shared: [string, { verdict: (...args: never[]) => unknown; alsoIn: readonly OtherCaller[] }][] = [];
    if ('headersTool' in check && check.headersTool)
      shared.push([check.code, { verdict: check.headersTool, alsoIn: ['headers tool'] }]);
    if ('sitePass' in check && check.sitePass)
      shared.push([
        check.code,
        {
          verdict: check.sitePass === 'sitemapListing' ? sitemapListingOutcome : evaluateLinkTargets,
          alsoIn: ['site pass'],
        },
      ]);
    return shared;
  }),
) as Readonly<Partial<Record<CheckCode, { verdict: (...args: never[]) => unknown; alsoIn: readonly OtherCaller[] }>>>;
