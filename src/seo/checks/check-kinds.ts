/**
 * The words of the check catalog (docs/scores.md): severities, categories, scopes and a catalog entry's shape. The
 * entries themselves come from the check definitions (check-definitions.ts); this file imports none of them.
 *
 * Severity rule (docs/scores.md "Severity rule"): CRITICAL when the page is out of search or broken for visitors
 * (4xx/5xx, redirect loop, unintended noindex, missing title, no response); WARNING when it ranks, is shown or converts
 * worse (missing description, duplicate title, thin content, poor vitals, broken resources, no HTTPS); NOTICE for
 * hygiene that rarely changes outcomes (language, Open Graph, URL style, llms.txt).
 */

export type Severity = 'CRITICAL' | 'WARNING' | 'NOTICE';
export type Category = 'META' | 'CONTENT' | 'LINKS' | 'TECHNICAL' | 'PERFORMANCE';
/** `page`: evaluated per crawled page; `site`: once per audit (pass rate 0 or 1). */
export type CheckScope = 'page' | 'site';
/** What a check needs beyond an HTML crawl: a lab measurement in Chromium, or the browser rendering mode. */
export type CheckNeeds = 'LAB_BROWSER' | 'RENDERING_MODE';

export const CATEGORIES: readonly Category[] = ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'];
export const SEVERITIES: readonly Severity[] = ['CRITICAL', 'WARNING', 'NOTICE'];

export interface CheckDefinition {
  code: string;
  title: string;
  severity: Severity;
  category: Category;
  scope: CheckScope;
  /** The rule, in one sentence. */
  description: string;
  /** Banded metrics: NOTICE in the needs-improvement band, WARNING in the poor band (each page at its own band). */
  banded?: true;
  /**
   * A fact about the site or its server, evaluated on every page (the pages are its evidence) but charged once for the
   * site: its issue's scope is "site", and it never makes a page "with a CRITICAL issue" for health.
   */
  siteFact?: true;
  /**
   * Each distinct cause of a failure is one fix (docs/scores.md "Fixes"): a failing target (one URL that answers
   * 404, linked from 78 pages), or an element a shared template repeats (a javascript:void(0) menu toggle). The score
   * charges each fix by its reach, with a ceiling per fix, instead of the pages the check fails on.
   */
  fixUnit?: FixUnit;
  /**
   * The severity a fix of this check is priced at, where it differs from the page's: a broken internal link is a
   * WARNING on the linking page, but the fix is a URL that answers 4xx/5xx, which is out of search (CRITICAL).
   */
  fixSeverity?: Severity;
  /**
   * A page failing it stays in search but is shown worse there: it counts as 2/3 of a healthy page (docs/scores.md
   * "Health"). Only the missing on-page basics have it.
   */
  shownWorse?: true;
  /**
   * A site check whose failure spreads over pages (the same title on 2,000 pages): it costs at least its fixed
   * site-level cost, and more when it reaches many pages, half what its severity costs on them as a page-level issue
   * (docs/scores.md "Site-level issues"). Never in health.
   */
  bySpread?: true;
  /** A failure caps the overall score (docs/scores.md "Blockers"): nothing of the site can be crawled or indexed. */
  blocker?: true;
  /**
   * A lab metric whose value Lighthouse's performance score already weighs: with lab metrics, the check costs
   * nothing (docs/scores.md), so a metric is not charged twice.
   */
  lighthouseScored?: true;
}

/** What one fix of a fix-grouped check is: a failing target URL, or an element a shared template repeats. */
export type FixUnit = 'target' | 'element';

export const SEVERITY_WEIGHTS: Readonly<Record<Severity, number>> = { CRITICAL: 10, WARNING: 5, NOTICE: 1 };

/**
 * How a failure is charged: `site` (once) for site-scope checks and for site facts evaluated on every page
 * (TECH_HTTP_PAGE, compression...); `page` (by the share of pages) for the rest.
 */
export function chargedScope(check: CheckDefinition): CheckScope {
  return check.scope === 'site' || check.siteFact ? 'site' : 'page';
}

/** The more severe of two severities. */
export function maxSeverity(a: Severity, b: Severity): Severity {
  return SEVERITY_WEIGHTS[a] >= SEVERITY_WEIGHTS[b] ? a : b;
}
