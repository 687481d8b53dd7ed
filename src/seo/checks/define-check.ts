/**
 * One audit check, defined in one place (issue 49): its catalog entry, its guidance, the shape of its evidence and
 * how a person is shown it, the evaluator that decides it and the rule that proposes its fix. The registries keyed
 * by code (check-catalog.ts, check-guidance.ts, evidence-view.ts, page-checks.ts, site-checks.ts, ../fixes/
 * fix-rules.ts) are derived from the list of definitions (check-definitions.ts); the docs (docs/checks/ and the
 * app's check docs) are generated from it.
 */
import type { FixRule } from '../fixes/fix-rule-context.js';
import type { Category, CheckNeeds, CheckScope, FixUnit, Severity } from './check-kinds.js';
import type { Presenter } from './evidence-presenters.js';
import type { LinkTargetVerdict } from './link-target-checks.js';
import type { PageEvaluator } from './page-check-helpers.js';
import type { SiteEvaluator } from './site-check-helpers.js';

/**
 * How the established tools classify the same finding (absent: we know of no equivalent), as recalled from their public
 * issue lists, and why ours is what it is where it differs from them or the severity rule needs saying (every CRITICAL
 * says why). `{}`: no tool has an equivalent and the rule says it all.
 */
export interface ScoreReason {
  /** Lighthouse's audit ("document-title: fail (SEO)"). */
  lighthouse?: string;
  /** Semrush Site Audit: error, warning or notice. */
  semrush?: string;
  /** Ahrefs Site Audit: error, warning or notice. */
  ahrefs?: string;
  /** Why ours is what it is. */
  ours?: string;
}

export interface CheckSpec<C extends string = string, S extends CheckScope = CheckScope> {
  /** The stable code (stored with every issue; never renamed). */
  code: C;
  title: string;
  /** The severity of a failure; banded checks give NOTICE or WARNING by the page's band (docs/scores.md). */
  severity: Severity;
  category: Category;
  /** `page`: decided per crawled page; `site`: once per audit, from all pages. */
  scope: S;
  /** Banded metric: NOTICE in the needs-improvement band, WARNING in the poor band. */
  banded?: true;
  /** A page-evaluated fact of the server, charged once for the site (check-kinds.ts, CheckDefinition). */
  siteFact?: true;
  /** Each distinct failing target (or repeated element) is one fix, priced by its reach (check-kinds.ts). */
  fixUnit?: FixUnit;
  /** The severity a fix is priced at, where it differs from the page's (check-kinds.ts, CheckDefinition). */
  fixSeverity?: Severity;
  /** A failing page counts as 2/3 of a healthy page (check-kinds.ts, CheckDefinition). */
  shownWorse?: true;
  /** A site check charged by the pages it spreads over, at least its fixed cost (check-kinds.ts). */
  bySpread?: true;
  /** A failure caps the overall score: nothing of the site can be crawled or indexed (check-kinds.ts). */
  blocker?: true;
  /** A lab metric Lighthouse's performance score already weighs: not charged twice (check-kinds.ts). */
  lighthouseScored?: true;
  /**
   * What it needs beyond an HTML crawl: a lab measurement in Chromium (run on the lab metrics of the start URL and
   * the most linked pages, audit-engine.ts), or the project's browser rendering mode (raw HTML against rendered).
   */
  needs?: CheckNeeds;
  /** The rule, in one sentence. */
  description: string;
  /**
   * Why its severity is what it is: the hand-written part of its row in docs/scores.md "Catalog" (the rest of the row
   * is read from this definition by `npm run docs:checks`, which fails on a check without one).
   */
  scoreReason?: ScoreReason;
  /** The check that reports this one's element missing on the same URL (check-prerequisites.ts says why). */
  requires?: string;
  /**
   * The site pass decides it again for each page, once the crawl knows every target (site-check-helpers.ts,
   * crawlPageChecks): from the link-target verdict of that name (link-target-checks.ts), or from the page's listing
   * in the sitemap. The engine keeps one occurrence when both passes fail a page.
   */
  sitePass?: LinkTargetVerdict | 'sitemapListing';
  /**
   * Its verdict reads other hosts' answers (external link targets): while an audit's external checks still run, it is
   * not evaluated; the audit is readable without it, and it folds in when they end (EXTERNAL_VERDICT_CODES).
   */
  externalVerdicts?: true;
  /** The free headers tool decides it too, with this same verdict (../headers/response-verdicts.ts). */
  headersTool?: (...args: never[]) => unknown;
  /** About the requested URL (its redirects, its listing), not the document redirects lead to (audit-page-rows.ts). */
  requestedUrl?: true;
  /**
   * A failing URL that crawled pages link to is charged once, as their broken links: as the fix of this check
   * (the audit's `chargedWith`, docs/counts.md "Each finding charged once").
   */
  chargedWith?: string;
  /** What its fix reads beyond the page: the audit's pages that share the page's title (../fixes/ twin titles). */
  fixReads?: 'titleTwins';
  /** Why it matters for search: 1-2 plain sentences. */
  why: string;
  /** How to fix it: 1-3 concrete sentences. */
  howToFix: string;
  /** The evidence's kind and keys, and how each key is shown (evidence-presenters.ts). */
  evidence: Presenter;
  /** The verdict: per page (page-check-helpers.ts, PageCheckContext) or per crawl (site-check-helpers.ts). */
  evaluate: S extends 'page' ? PageEvaluator : SiteEvaluator;
  /** The deterministic fix for one occurrence (../fixes/). */
  fix: FixRule;
}

/** Keeps the code and scope literal, so the catalog's code unions and the records keyed by them stay exact. */
export function defineCheck<const C extends string, const S extends CheckScope>(
  spec: CheckSpec<C, S>,
): CheckSpec<C, S> {
  return spec;
}
