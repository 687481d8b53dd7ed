import {
  cacheVerdict,
  compressionVerdict,
  contentTypeOptionsVerdict,
  cspVerdict,
  frameProtectionVerdict,
  hstsShortVerdict,
  hstsVerdict,
  isPlainHttp,
  isRedirectChain,
  xRobotsTagVerdict,
} from '../headers/response-verdicts.js';
import { charsetOf } from '../page/header-values.js';
import { CHECK_CATALOG, type CheckCode, type PageCheckCode, type SiteCheckCode } from './check-catalog.js';
import { LINK_TARGET_CODES, evaluateLinkTargets } from './link-target-checks.js';
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
 * Codes decided in a second place, and the one function both places call for the verdict:
 * - the free headers tool (src/seo/headers/header-checks.ts) judges one response with the same response-header
 *   parser and verdicts (src/seo/headers/response-verdicts.ts) as the audit's evaluators;
 * - the site pass (runSiteChecks) re-evaluates some page-scope codes from page summaries once the crawl knows
 *   every target, through the same functions as the page pass.
 * Anything not listed here is decided only by its evaluator in CHECK_EVALUATORS.
 */
export const SHARED_VERDICTS = {
  TECH_HTTP_PAGE: { verdict: isPlainHttp, alsoIn: ['headers tool'] },
  LINKS_REDIRECT_CHAIN: { verdict: isRedirectChain, alsoIn: ['headers tool'] },
  TECH_HSTS_MISSING: { verdict: hstsVerdict, alsoIn: ['headers tool'] },
  TECH_HSTS_SHORT: { verdict: hstsShortVerdict, alsoIn: ['headers tool'] },
  TECH_CSP_MISSING: { verdict: cspVerdict, alsoIn: ['headers tool'] },
  TECH_CONTENT_TYPE_OPTIONS_MISSING: { verdict: contentTypeOptionsVerdict, alsoIn: ['headers tool'] },
  TECH_CLICKJACKING_UNPROTECTED: { verdict: frameProtectionVerdict, alsoIn: ['headers tool'] },
  PERF_NO_COMPRESSION: { verdict: compressionVerdict, alsoIn: ['headers tool'] },
  PERF_NO_CACHE_HEADERS: { verdict: cacheVerdict, alsoIn: ['headers tool'] },
  // The audit reads X-Robots-Tag through the page facts (buildRobotsDirectives), which parse each value with the
  // same parseXRobotsTag the tool's xRobotsTagVerdict folds; meta robots count only in the audit (the tool sees
  // headers only).
  TECH_NOINDEX: { verdict: xRobotsTagVerdict, alsoIn: ['headers tool'] },
  // The page facts' charset is meta, http-equiv, else charsetOf(Content-Type); the tool checks the same sources.
  META_CHARSET_MISSING: { verdict: charsetOf, alsoIn: ['headers tool'] },
  TECH_SITEMAP_NON_INDEXABLE: { verdict: sitemapListingOutcome, alsoIn: ['site pass'] },
  ...Object.fromEntries(
    LINK_TARGET_CODES.map((code) => [code, { verdict: evaluateLinkTargets, alsoIn: ['site pass'] }]),
  ),
} as Readonly<Partial<Record<CheckCode, { verdict: (...args: never[]) => unknown; alsoIn: readonly OtherCaller[] }>>>;
