/**
 * Audit scores (docs/scores.md "Scoring"), all integers 0..100. Every issue costs points, so that fixing it moves the
 * score, and the costs are the explanation ("why this score"):
 *
 *   page-level issue cost = 100 * weight(severity) * affected pages / crawled HTML pages
 *                           weight: CRITICAL 1.0 | WARNING 0.3 | NOTICE 0.03; a CRITICAL issue costs at least 1;
 *                           a banded check's pages are each charged at their own band (NOTICE / WARNING)
 *   fix-grouped issue cost = a check whose failures have causes (`fixUnit`: a failing target, a repeated element)
 *                           is charged per fix, not per page: a fix costs ceiling(severity) * sqrt(reach), reach =
 *                           pages it is on / crawled HTML pages, ceiling CRITICAL 35 | WARNING 7.5 | NOTICE 0.75;
 *                           fixes on the very same pages are one place (a template's list of dead links): a place
 *                           of k fixes costs c_p = fix cost * (1 + log10 k); the issue costs min(M, sqrt(Σ c_p²)),
 *                           M = 100 * weight(severity): places add in quadrature, so twenty targets each on 1% of
 *                           the pages cost what one on 20% costs, and no number of them costs more than the check
 *                           failing on every page
 *   site-level issue cost = CRITICAL 15 | WARNING 5 | NOTICE 0.5   (checks whose catalog scope is "site"); one that
 *                           spreads over pages (`bySpread`: duplicate titles, descriptions, text) costs the larger of
 *                           that and half what its severity costs as a page-level issue on the pages it reaches
 *   site fact cost        = a fact of the site or its server evaluated on every page (no HTTPS, no compression...):
 *                           one site-level issue, never in health, costing the larger of its site-level cost and
 *                           half what its severity costs as a page-level issue on the pages it reaches (no HTTPS on
 *                           every page: 15). The calibration table bounds it: at the fixed 5 a clean http site scores
 *                           99 (row 13 wants at most 98); at the full 30, three notices on a clean http site take it
 *                           under 97 (row 9). docs/scores.md says why.
 *   category              = max(0, round(100 - Σ its costs)); 100 when nothing in it fires
 *   performance           = with lab metrics: 100 * mean over pages of Lighthouse's score (FCP 10, LCP 25, TBT 30,
 *                           CLS 25, SI 10, re-normalized), minus the category's other costs (the metric checks
 *                           Lighthouse's score already counts cost nothing more); else the category formula
 *   health                = % of crawled HTML pages with no page-level CRITICAL issue; a page failing a check that
 *                           shows it worse in search (`shownWorse`: the on-page basics missing) counts 2/3
 *   overall               = round(0.5 * health + 0.5 * (20 META + 20 CONTENT + 20 LINKS + 25 TECHNICAL
 *                           + 15 PERFORMANCE) / 100), capped at 50 when a site-wide blocker fires
 *                           (TECH_ROBOTS_BLOCKS_ALL, TECH_NOINDEX_SITEWIDE, TECH_ROBOTS_UNREACHABLE, 0 indexable
 *                           pages, or the start URL answering 4xx/5xx); a start URL that does not answer at all
 *                           fails the audit (no score)
 *   why this score        = the costs by what they take off the overall score (their points times their category's
 *                           weight, plus the health a CRITICAL page-level issue takes), the largest first
 *   issue priority        = its cost + the ranking term of its affected pages that rank (ranking-weight.ts)
 *   project check settings = applied before all of this (src/seo/checks/check-overrides.ts): a disabled check is
 *                           not reported and counts nowhere (no cost, not in health, not a blocker, not applied);
 *                           an overridden severity replaces the catalog's everywhere above (weight, site cost,
 *                           health); banded PERF_* checks keep their measured band. Recorded in breakdown.overrides.
 *
 * The first formula (a severity-weighted pass rate over every applicable check) diluted real problems: fixing 4
 * missing titles and a 500 page on a 150-page site left the overall score where it was. The second charged a
 * server-wide fact (plain http) as a CRITICAL on every page: every http site scored 23-37 whatever else was true.
 */
import {
  CHECK_CATALOG,
  TECH_NOINDEX_SITEWIDE,
  TECH_ROBOTS_BLOCKS_ALL,
  TECH_ROBOTS_UNREACHABLE,
  chargedScope,
  findCheck,
  getCheck,
  type Category,
  type CheckOverride,
  type CheckScope,
  type FixPlace,
  type FixReach,
  type LabMetrics,
  type Severity,
} from '../checks/index.js';
import { lighthousePerformanceScore } from './lighthouse-metric-score.js';
import { RANKING_POINTS } from './ranking-weight.js';

export const CATEGORY_WEIGHTS: Readonly<Record<Category, number>> = {
  META: 20,
  CONTENT: 20,
  LINKS: 20,
  TECHNICAL: 25,
  PERFORMANCE: 15,
};

/** What a page-level issue on every page costs its category, per 100 points. */
export const PAGE_ISSUE_WEIGHTS: Readonly<Record<Severity, number>> = { CRITICAL: 1, WARNING: 0.3, NOTICE: 0.03 };
/** The least a CRITICAL page-level issue costs, however few pages it affects. */
export const CRITICAL_MIN_COST = 1;
/**
 * What one fix costs at most (on every page), by the severity it is priced at: a fix on `reach` of the pages costs
 * `ceiling * sqrt(reach)` (fixCost). 35 keeps one CRITICAL target linked from every page at LINKS 65 (calibration
 * row 20: ≥ 60) while one linked from 2.5% of the pages still costs 5.5 LINKS points (row 7: overall ≤ 99); 7.5
 * keeps two javascript:void(0) toggles on every page at LINKS ≥ 85 (row 25).
 */
export const FIX_CEILINGS: Readonly<Record<Severity, number>> = { CRITICAL: 35, WARNING: 7.5, NOTICE: 0.75 };
/**
 * A page that a `shownWorse` check fails on counts as this share of a healthy page: it stays in search, shown worse
 * there. At 1/2 a site missing its basics everywhere lost as much health as one with a critical issue on half its
 * pages; at 2/3 row 24 (basics missing on every page) scores 71 on https, 69 on http (must be ≤ 75).
 */
export const SHOWN_WORSE_HEALTH = 2 / 3;
/** SHOWN_WORSE_HEALTH in words, as the docs and the surfaces say it. */
export const SHOWN_WORSE_HEALTH_WORDS = '2/3';
/** What a failing site-level check costs its category. */
export const SITE_ISSUE_COSTS: Readonly<Record<Severity, number>> = { CRITICAL: 15, WARNING: 5, NOTICE: 0.5 };
/** The share of the overall score that is health (pages without a CRITICAL issue); the rest is the categories. */
export const HEALTH_SHARE = 0.5;
/**
 * A site fact (no HTTPS, no compression...), or a site check spread over pages (`bySpread`: duplicates), costs this
 * share of what its severity costs as a page-level issue on the pages it reaches (and at least its site-level cost):
 * one fix for the whole site, never in health.
 */
export const SITE_FACT_SHARE = 0.5;

/** The checks whose failure caps the overall score (their definitions' `blocker`). */
export const BLOCKER_CODES: readonly string[] = CHECK_CATALOG.filter((check) => check.blocker).map(
  (check) => check.code,
);

/** The blocker of a crawl whose 2xx HTML pages are all noindex or canonical to another URL. */
export const NO_INDEXABLE_PAGES = 'NO_INDEXABLE_PAGES';

export const BLOCKED_OVERALL_CAP = 50;

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { CRITICAL: 3, WARNING: 2, NOTICE: 1 };

/** Lab metric checks whose metric Lighthouse's performance score already weighs (not charged twice). */
export const LIGHTHOUSE_SCORED_CODES: ReadonlySet<string> = new Set(
  CHECK_CATALOG.filter((check) => check.lighthouseScored).map((check) => check.code),
);

/** What scoring needs of an aggregated check; severity, category and scope default to the catalog's. */
export interface ScoredCheck {
  code: string;
  severity?: Severity;
  category?: Category;
  scope?: CheckScope;
  affectedPages: number;
  applicablePages: number;
  /** Affected pages by the severity of their result, when they differ (banded checks): each charged at its own. */
  affectedBySeverity?: Partial<Record<Severity, number>>;
  /**
   * A `fixUnit` check's fixes: each fix's reach in pages, the widest listed, and the places they are in
   * (CheckAggregate.fixes); without places each fix is a place of its own.
   */
  fixes?: { count: number; listed: readonly FixReach[]; reach: readonly number[]; places?: readonly FixPlace[] };
  /** Affected URLs another check's fix is charged for (a linked 4xx/5xx URL): listed, costing nothing here. */
  chargedElsewhere?: number;
}

/** What the crawl found about indexability: 2xx HTML pages a search engine would index, and why the others not. */
export interface Indexability {
  indexable: number;
  noindex: number;
  /** Pages naming a canonical URL on another host (and not noindex). */
  canonicalOtherHost: number;
  /** Pages naming another canonical URL on the same host (and not noindex). */
  canonicalSameHost: number;
}

/** Crawled HTML documents (link targets, PDFs and other resources are not pages); how many have a CRITICAL issue. */
export interface ScoredPages {
  html: number;
  withCritical: number;
  /** Pages without a CRITICAL issue that a `shownWorse` check fails on: 2/3 of a healthy page each. */
  shownWorse?: number;
  /** The crawled 2xx HTML pages' indexability; 0 indexable pages is a blocker. Unknown when absent. */
  indexability?: Indexability;
}

export interface ScoreOptions {
  /** The pages scores are shares of; without it, the largest applicable page count of a page-level check. */
  pages?: ScoredPages;
  /** Lab metrics of the measured pages; the performance score then follows Lighthouse. */
  labMetrics?: LabMetrics | readonly LabMetrics[];
  /** Final status of the start URL; 4xx/5xx caps the overall score. */
  startUrlStatus?: number | null;
  /**
   * The project's check settings the checks were aggregated with (CheckOverrides.applied): recorded in the
   * breakdown, so that the audit keeps what its scores meant when the settings change later.
   */
  overrides?: readonly CheckOverride[];
}

export interface AuditScores {
  overall: number;
  meta: number;
  content: number;
  links: number;
  technical: number;
  performance: number;
}

/** Scores as an audit row holds them: null until the audit completes. */
export type StoredScores = { [K in keyof AuditScores]: AuditScores[K] | null };

/** One issue's part of the score: the points it costs its category. */
export interface ScoreCost {
  code: string;
  category: Category;
  severity: Severity;
  scope: CheckScope;
  affectedPages: number;
  /** Points off the category score before rounding (a category cannot go below 0). */
  points: number;
  /**
   * A fix-grouped issue's fixes: how many, the widest (at most FIXES_IN_BREAKDOWN) with their reach, and in how many
   * places (fixes on the very same pages are one place).
   */
  fixes?: { count: number; listed: FixReach[]; places?: number };
}

/** The fixes a cost names in "why this score". */
export const FIXES_IN_BREAKDOWN = 5;

/** Why a score is what it is: health, the costs largest first, and whether a blocker capped the overall score. */
export interface ScoreBreakdown {
  /** % of crawled HTML pages without a CRITICAL issue, one decimal. */
  health: number;
  htmlPages: number;
  pagesWithCritical: number;
  /** Pages without a CRITICAL issue whose on-page basics are missing (`shownWorse`): 2/3 of a healthy page each. */
  pagesShownWorse?: number;
  /** Checks that applied to the site (on any page, or once for the site), and how many of them passed everywhere. */
  checksApplied: number;
  checksPassed: number;
  /** Lighthouse's performance score from lab metrics, when there were any (before the category's costs). */
  labPerformance: number | null;
  costs: ScoreCost[];
  /** The overall score before the blocker cap, when a blocker capped it. */
  cappedFrom: number | null;
  blockers: string[];
  /** The project's check settings in force (disabled checks, overridden severities); absent when none were. */
  overrides?: CheckOverride[];
  /** The crawled pages' indexability (NO_INDEXABLE_PAGES says when none is indexable); absent when not counted. */
  indexability?: Indexability;
  /**
   * Occurrences marked "won't fix" and left out of the costs and health above (wont-fix.ts), with the breakdown
   * as the audit scored before any was left out; absent when none was.
   */
  wontFix?: { excludedOccurrences: number; base: Omit<ScoreBreakdown, 'wontFix'> };
}

export interface ScoreResult {
  scores: AuditScores;
  breakdown: ScoreBreakdown;
}

/** What one failing check costs its category, or null when it costs nothing (passing or not applicable). */
export function issueCost(check: ScoredCheck, htmlPages: number): ScoreCost | null {
  if (check.applicablePages <= 0 || check.affectedPages <= 0) return null;
  const definition = findCheck(check.code);
  const severity = check.severity ?? definition!.severity;
  const scope = check.scope ?? chargedScope(definition!);
  const category = check.category ?? definition!.category;
  const pageCost = (sev: Severity, pages: number) => {
    const share = Math.min(1, pages / Math.max(1, htmlPages));
    return 100 * PAGE_ISSUE_WEIGHTS[sev] * share;
  };
  // URLs another check's fix is charged for (a linked URL answering 404: its broken links' fix) cost nothing here.
  const charged = Math.max(0, check.affectedPages - (check.chargedElsewhere ?? 0));
  if (charged <= 0) return null;
  let points: number;
  let fixes: ScoreCost['fixes'];
  if (scope === 'page' && definition?.fixUnit) {
    // A fix is the unit of cost: each failing target (or repeated element), by its reach, with a ceiling per fix.
    // The fix severity (a broken link's target is out of search) applies at the catalog's severity; a project's
    // override of the severity replaces it.
    const fixSeverity = severity === definition.severity ? (definition.fixSeverity ?? severity) : severity;
    points = fixGroupCost(fixSeverity, placesOf(check.fixes, charged), htmlPages);
    if (check.fixes) {
      fixes = {
        count: check.fixes.count,
        listed: check.fixes.listed.slice(0, FIXES_IN_BREAKDOWN).map((f) => ({ ...f })),
      };
      if (check.fixes.places) fixes.places = check.fixes.places.length;
    }
    const cost: ScoreCost = { code: check.code, category, severity, scope, affectedPages: check.affectedPages, points };
    if (fixes) cost.fixes = fixes;
    return cost;
  }
  if (scope === 'site') {
    points = SITE_ISSUE_COSTS[severity];
    // A site fact, or a site check spread over pages (the same title on 2,000 pages: Apache's manual paid the 5 points
    // a site with two duplicates pays), costs at least its share of what its severity costs on the pages it reaches.
    if (definition?.siteFact || definition?.bySpread)
      points = Math.max(points, SITE_FACT_SHARE * pageCost(severity, check.affectedPages));
  } else if (check.affectedBySeverity && Object.keys(check.affectedBySeverity).length > 1) {
    // Each page at its own band: a DOM of 1,600 nodes is a WARNING on that page, one of 900 a NOTICE on its own.
    points = 0;
    for (const [sev, pages] of Object.entries(check.affectedBySeverity) as [Severity, number][])
      points += pageCost(sev, pages);
    if (severity === 'CRITICAL') points = Math.max(CRITICAL_MIN_COST, points);
  } else {
    points = pageCost(severity, charged);
    if (severity === 'CRITICAL') points = Math.max(CRITICAL_MIN_COST, points);
  }
  return { code: check.code, category, severity, scope, affectedPages: check.affectedPages, points };
}

/** One fix's cost: its severity's ceiling times the square root of its reach (the share of pages it is on). */
export function fixCost(severity: Severity, pages: number, htmlPages: number): number {
  return FIX_CEILINGS[severity] * Math.sqrt(Math.min(1, pages / Math.max(1, htmlPages)));
}

/** What a place of `fixes` fixes on the same `pages` costs: one fix's cost times 1 + log10(fixes). */
export function placeCost(severity: Severity, place: FixPlace, htmlPages: number): number {
  return fixCost(severity, place.pages, htmlPages) * (1 + Math.log10(Math.max(1, place.fixes)));
}

/**
 * A check's places together: min(M, sqrt(Σ c_p²)), M = what the check costs failing on every page (100 * weight).
 * Places add in quadrature: twenty fixes each on 1% of the pages cost what one on 20% costs (the reach they have
 * together), never more than M, whatever their number.
 */
export function fixGroupCost(severity: Severity, places: readonly FixPlace[], htmlPages: number): number {
  const most = 100 * PAGE_ISSUE_WEIGHTS[severity];
  let squares = 0;
  for (const place of places) squares += placeCost(severity, place, htmlPages) ** 2;
  return Math.min(most, Math.sqrt(squares));
}

/** A check's places: its fixes' places, each fix a place of its own when they were not told, or one fix on all. */
function placesOf(fixes: ScoredCheck['fixes'], charged: number): readonly FixPlace[] {
  if (fixes?.places?.length) return fixes.places;
  if (fixes?.reach.length) return fixes.reach.map((pages) => ({ pages, fixes: 1 }));
  return [{ pages: charged, fixes: 1 }];
}

/** Health: % of the crawled HTML pages without a CRITICAL issue, a page shown worse in search counting 2/3. */
export function healthOf(html: number, withCritical: number, shownWorse = 0): number {
  if (html <= 0) return 100;
  const critical = Math.min(withCritical, html);
  const worse = Math.min(shownWorse, html - critical);
  return (100 * (html - critical - (1 - SHOWN_WORSE_HEALTH) * worse)) / html;
}

/**
 * What a cost takes off the overall score, in overall points: its share of the categories' half, plus the health
 * a page-level CRITICAL issue takes (at most its share of the pages). "Why this score" lists the largest first.
 */
export function overallImpact(cost: ScoreCost, htmlPages: number, health?: HealthPages): number {
  let impact = ((1 - HEALTH_SHARE) * cost.points * CATEGORY_WEIGHTS[cost.category]) / 100;
  const share = (pages: number) => HEALTH_SHARE * 100 * Math.min(1, pages / Math.max(1, htmlPages));
  // At most the pages health counts: a failing URL that is no HTML page (a linked 404) takes no health.
  if (cost.severity === 'CRITICAL' && cost.scope === 'page')
    impact += share(Math.min(cost.affectedPages, health?.withCritical ?? cost.affectedPages));
  else if (cost.scope === 'page' && health?.shownWorse && findCheck(cost.code)?.shownWorse)
    impact += (1 - SHOWN_WORSE_HEALTH) * share(Math.min(cost.affectedPages, health.shownWorse));
  return impact;
}

/** The pages health counts against: with a CRITICAL issue, and shown worse (2/3 each). */
export interface HealthPages {
  withCritical: number;
  shownWorse?: number;
}

/**
 * "Why this score"'s order: what takes most off the overall score first (a -30 line is never under a -5 one); a tie
 * goes to the more severe, then to what is fixed once for the site.
 */
export function costOrder(htmlPages: number, health?: HealthPages): (a: ScoreCost, b: ScoreCost) => number {
  return (a, b) =>
    roundedImpact(b, htmlPages, health) - roundedImpact(a, htmlPages, health) ||
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    (a.scope === 'site' ? 0 : 1) - (b.scope === 'site' ? 0 : 1) ||
    b.points - a.points ||
    a.code.localeCompare(b.code);
}

/** The overall impact to 1e-6, so that floating-point dust does not decide an order. */
function roundedImpact(cost: ScoreCost, htmlPages: number, health?: HealthPages): number {
  return Math.round(overallImpact(cost, htmlPages, health) * 1e6);
}

/**
 * How much fixing an issue matters: the points it costs its category (severity weight x share of the crawled HTML
 * pages it affects; a fixed amount for a site-level issue), plus the ranking term (ranking-weight.ts):
 * RANKING_POINTS x severity weight x `ranking`, the position weights of the keywords its affected pages rank for.
 * Without the audit's HTML page count (audits scored before it was kept) the share is of the pages the check
 * applied to. `charged`: the points the audit's score charged it, where the issue's own fields cannot tell them (a
 * fix-grouped check is charged by the reach of each fix, which a stored issue does not keep whole).
 */
export function issuePriority(
  check: Required<Pick<ScoredCheck, 'code' | 'severity' | 'category' | 'affectedPages' | 'applicablePages'>> &
    Pick<ScoredCheck, 'fixes' | 'chargedElsewhere'>,
  htmlPages: number | null,
  ranking = 0,
  charged?: number,
): number {
  // A stored issue names its severity and category; a code the catalog no longer has counts as page-level.
  const definition = findCheck(check.code);
  const scope = definition ? chargedScope(definition) : 'page';
  // The fields scoring reads, named: a stored issue carries many more, and a list of 2,000 issues copied each of them.
  const { code, severity, category, affectedPages, applicablePages, fixes, chargedElsewhere } = check;
  const scored = { code, severity, category, scope, affectedPages, applicablePages, fixes, chargedElsewhere };
  const points = charged ?? issueCost(scored, htmlPages ?? applicablePages)?.points ?? 0;
  return ranking > 0 ? points + RANKING_POINTS * PAGE_ISSUE_WEIGHTS[check.severity] * ranking : points;
}

/** The pages scores are shares of, when the caller did not count them: the widest page-level check's pages. */
function inferredPages(checks: readonly ScoredCheck[]): ScoredPages {
  let html = 0;
  for (const check of checks) {
    const definition = getCheck(check.code);
    if (definition.scope === 'page' && (check.scope ?? 'page') === 'page') html = Math.max(html, check.applicablePages);
    else if (definition.siteFact) html = Math.max(html, check.applicablePages);
  }
  return { html, withCritical: 0 };
}

export function scoreAudit(checks: readonly ScoredCheck[], options: ScoreOptions = {}): ScoreResult {
  const pages = options.pages ?? inferredPages(checks);
  const applied = checks.filter((check) => check.applicablePages > 0);
  const labPerformance = labPerformanceScore(options.labMetrics);
  const costs: ScoreCost[] = [];
  for (const check of checks) {
    const cost = issueCost(check, pages.html);
    if (!cost) continue;
    if (labPerformance !== null && LIGHTHOUSE_SCORED_CODES.has(cost.code)) continue;
    costs.push(cost);
  }
  // Health's pages bound what a cost takes off health, when the caller counted them.
  const counted = options.pages ? { withCritical: pages.withCritical, shownWorse: pages.shownWorse } : undefined;
  costs.sort(costOrder(pages.html, counted));
  const lost = (category: Category) =>
    costs.filter((c) => c.category === category).reduce((sum, c) => sum + c.points, 0);
  const category = (c: Category, from = 100) => Math.max(0, roundScore(from - lost(c)));

  const meta = category('META');
  const content = category('CONTENT');
  const links = category('LINKS');
  const technical = category('TECHNICAL');
  const performance = category('PERFORMANCE', labPerformance ?? 100);
  const categories =
    (CATEGORY_WEIGHTS.META * meta +
      CATEGORY_WEIGHTS.CONTENT * content +
      CATEGORY_WEIGHTS.LINKS * links +
      CATEGORY_WEIGHTS.TECHNICAL * technical +
      CATEGORY_WEIGHTS.PERFORMANCE * performance) /
    100;
  const withCritical = Math.min(pages.withCritical, pages.html);
  const shownWorse = Math.min(pages.shownWorse ?? 0, pages.html - withCritical);
  const health = healthOf(pages.html, withCritical, shownWorse);
  const uncapped = roundScore(HEALTH_SHARE * health + (1 - HEALTH_SHARE) * categories);
  const blockers = blockersOf(checks, options.startUrlStatus, pages.indexability);
  const overall = blockers.length ? Math.min(uncapped, BLOCKED_OVERALL_CAP) : uncapped;
  return {
    scores: { overall, meta, content, links, technical, performance },
    breakdown: {
      health: Math.round(health * 10) / 10,
      htmlPages: pages.html,
      pagesWithCritical: withCritical,
      ...(shownWorse > 0 ? { pagesShownWorse: shownWorse } : {}),
      checksApplied: applied.length,
      checksPassed: applied.filter((check) => check.affectedPages === 0).length,
      labPerformance,
      costs,
      cappedFrom: overall < uncapped ? uncapped : null,
      blockers,
      ...(options.overrides?.length ? { overrides: [...options.overrides] } : {}),
      ...(pages.indexability ? { indexability: { ...pages.indexability } } : {}),
    },
  };
}

/** The scores alone (see scoreAudit for why they are what they are). */
export function computeScores(checks: readonly ScoredCheck[], options: ScoreOptions = {}): AuditScores {
  return scoreAudit(checks, options).scores;
}

/**
 * The site-wide blockers that fire: the codes, `NO_INDEXABLE_PAGES` when the crawl found 2xx HTML pages and none is
 * indexable (each noindex or canonical to another URL), and `START_URL_<status>` when the start URL answers 4xx/5xx.
 */
export function blockersOf(
  checks: readonly ScoredCheck[],
  startUrlStatus?: number | null,
  indexability?: Indexability,
): string[] {
  const fired = checks
    .filter((check) => BLOCKER_CODES.includes(check.code) && check.applicablePages > 0 && check.affectedPages > 0)
    .map((check) => check.code);
  if (indexability && indexability.indexable === 0 && nonIndexable(indexability) > 0) fired.push(NO_INDEXABLE_PAGES);
  if (startUrlStatus !== undefined && startUrlStatus !== null && startUrlStatus >= 400 && startUrlStatus < 600)
    fired.push(`START_URL_${startUrlStatus}`);
  return fired;
}

function nonIndexable(i: Indexability): number {
  return i.noindex + i.canonicalOtherHost + i.canonicalSameHost;
}

/** A site-wide blocker: search engines cannot crawl or index the site at all. */
export function isBlocked(
  checks: readonly ScoredCheck[],
  startUrlStatus?: number | null,
  indexability?: Indexability,
): boolean {
  return blockersOf(checks, startUrlStatus, indexability).length > 0;
}

/** One blocker, said as the banner says it. */
export interface BlockerNotice {
  code: string;
  message: string;
}

/**
 * The banner of a capped audit: one sentence per blocker, the "0 indexable pages" one first. Site-wide noindex is
 * left out when it is the reason for 0 indexable pages (one fact, one line). When no page is indexable, the checks
 * that judge indexable pages only (thin content, duplicates) do not apply, and the banner says so.
 */
export function blockerNotices(breakdown: Pick<ScoreBreakdown, 'blockers' | 'indexability'>): BlockerNotice[] {
  const notices: BlockerNotice[] = [];
  const blockers = breakdown.blockers;
  const none = blockers.includes(NO_INDEXABLE_PAGES);
  if (none) {
    const i = breakdown.indexability;
    const why =
      !i || nonIndexable(i) === 0
        ? 'no crawled page is indexable'
        : i.noindex === nonIndexable(i)
          ? 'every page is noindex'
          : i.canonicalOtherHost === nonIndexable(i)
            ? 'every page is canonical to another host'
            : 'every page is noindex or names another URL as its canonical';
    notices.push({
      code: NO_INDEXABLE_PAGES,
      message:
        `0 indexable pages: ${why}. Search engines will index none of this site as audited; thin and duplicate ` +
        'content checks are not applicable (they judge indexable pages only).',
    });
  }
  for (const code of blockers) {
    if (code === NO_INDEXABLE_PAGES || (none && code === TECH_NOINDEX_SITEWIDE)) continue;
    const status = /^START_URL_(\d+)$/.exec(code)?.[1];
    const message =
      status !== undefined
        ? `The start URL answers ${status}: search engines get an error where the site begins.`
        : code === TECH_ROBOTS_BLOCKS_ALL
          ? 'robots.txt blocks every crawler (Disallow: / for *): search engines may not crawl the site.'
          : code === TECH_ROBOTS_UNREACHABLE
            ? 'robots.txt cannot be read (5xx or no answer): search engines treat the whole site as disallowed.'
            : code === TECH_NOINDEX_SITEWIDE
              ? '90% or more of the pages are noindex: search engines will index almost nothing of this site.'
              : `${code} keeps search engines from the whole site.`;
    notices.push({ code, message });
  }
  return notices;
}

function labPerformanceScore(labMetrics: ScoreOptions['labMetrics']): number | null {
  if (!labMetrics) return null;
  const list = Array.isArray(labMetrics) ? (labMetrics as readonly LabMetrics[]) : [labMetrics as LabMetrics];
  const scores = list.map(lighthousePerformanceScore).filter((score): score is number => score !== null);
  if (scores.length === 0) return null;
  return roundScore((100 * scores.reduce((sum, score) => sum + score, 0)) / scores.length);
}

/** Rounds half up, immune to binary noise such as 82.49999999999999 for 82.5. */
function roundScore(value: number): number {
  return Math.round(Math.round(value * 1e6) / 1e6);
}
