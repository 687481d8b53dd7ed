/**
 * The public check catalog: every code of src/seo/checks' CHECK_CATALOG with its guidance (check-guidance.ts), what
 * it needs to run and how it counts in the score (src/seo/scoring). Read generically from the catalog, so a code
 * added there appears here, in GraphQL `checks`, GET /api/checks and the /checks pages, by itself.
 */
import {
  CHECK_CATALOG,
  chargedScope,
  guidanceFor,
  type Category,
  type CheckDefinition,
  type CheckScope,
  type Severity,
} from '../seo/checks/index.js';
import {
  BLOCKED_OVERALL_CAP,
  BLOCKER_CODES,
  CATEGORY_WEIGHTS,
  CRITICAL_MIN_COST,
  LIGHTHOUSE_SCORED_CODES,
  PAGE_ISSUE_WEIGHTS,
  SITE_FACT_SHARE,
  SITE_ISSUE_COSTS,
} from '../seo/scoring/index.js';

/**
 * What a check needs beyond an html-mode crawl: NONE; LAB_BROWSER, a lab measurement in Chromium (Core Web Vitals
 * and page weight of the start URL and the most linked pages; not applicable without a configured browser);
 * RENDERING_MODE, the project's browser rendering mode (raw HTML compared with the rendered page).
 */
export type CheckRequirement = 'NONE' | 'LAB_BROWSER' | 'RENDERING_MODE';

/** Lab metrics the audit measures in a browser (audit-engine.ts labChecks). */
const LAB_CODES: ReadonlySet<string> = new Set([
  'PERF_LCP',
  'PERF_CLS',
  'PERF_INP',
  'PERF_TBT',
  'PERF_FCP',
  'PERF_PAGE_WEIGHT',
]);
/** Rendering checks compare raw and rendered facts: their codes start with RENDER_ (check-catalog.ts). */
const RENDERING_PREFIX = 'RENDER_';

export interface CheckDoc {
  code: string;
  title: string;
  category: Category;
  severity: Severity;
  scope: CheckScope;
  /** The rule, in one sentence. */
  description: string;
  why: string;
  fix: string;
  /** Severity follows the measured band (NOTICE, WARNING above the second threshold): not overridable. */
  banded: boolean;
  requires: CheckRequirement;
  /** A failing blocker caps the overall score (site-wide: nothing can be crawled or indexed). */
  blocker: boolean;
  /** How a failure counts in the score, in one or two plain sentences. */
  scoring: string;
}

export function requirementOf(code: string): CheckRequirement {
  if (LAB_CODES.has(code)) return 'LAB_BROWSER';
  if (code.startsWith(RENDERING_PREFIX)) return 'RENDERING_MODE';
  return 'NONE';
}

/** How a failure of the check counts (score-formula.ts), at the catalog's severity. */
export function scoringOf(check: CheckDefinition): string {
  const category = check.category;
  const weight = CATEGORY_WEIGHTS[category];
  let cost: string;
  if (check.banded) {
    cost =
      `Each affected page costs the ${category} score 100 × ${String(PAGE_ISSUE_WEIGHTS.NOTICE)} ÷ crawled HTML ` +
      `pages in the needs-improvement band (NOTICE) and 100 × ${String(PAGE_ISSUE_WEIGHTS.WARNING)} ÷ crawled HTML ` +
      'pages in the poor band (WARNING): each page at the band its measured value falls in.';
    if (LIGHTHOUSE_SCORED_CODES.has(check.code))
      cost +=
        " With lab metrics, Lighthouse's performance score weighs this metric instead and the check costs nothing.";
  } else if (check.siteFact) {
    cost =
      `A fact of the site or its server, charged once for the site: it costs the ${category} score the larger of ` +
      `${String(SITE_ISSUE_COSTS[check.severity])} points and ${String(SITE_FACT_SHARE)} × 100 × ` +
      `${String(PAGE_ISSUE_WEIGHTS[check.severity])} × affected pages ÷ crawled HTML pages, and never counts ` +
      'against health.';
  } else if (check.scope === 'site') {
    cost = `A failure costs the ${category} score ${String(SITE_ISSUE_COSTS[check.severity])} points (a fixed cost).`;
  } else {
    cost =
      `It costs the ${category} score 100 × ${String(PAGE_ISSUE_WEIGHTS[check.severity])} × affected pages ÷ crawled ` +
      'HTML pages' +
      (check.severity === 'CRITICAL' ? `, at least ${CRITICAL_MIN_COST} point.` : '.');
  }
  const parts = [cost, `${category} weighs ${weight}% of the categories' half of the overall score.`];
  if (check.severity === 'CRITICAL' && check.scope === 'page' && !check.siteFact)
    parts.push('Pages where it fails count as pages with a CRITICAL issue, which lowers the health half.');
  if (BLOCKER_CODES.includes(check.code))
    parts.push(`When it fails the overall score is capped at ${BLOCKED_OVERALL_CAP}.`);
  parts.push(
    'A project can disable it (no issue, no cost) or' +
      (check.banded ? ' not change its severity (banded).' : ' change its severity (costed at the new severity).'),
  );
  return parts.join(' ');
}

function toDoc(check: CheckDefinition): CheckDoc {
  const guidance = guidanceFor(check.code);
  return {
    code: check.code,
    title: check.title,
    category: check.category,
    severity: check.severity,
    scope: chargedScope(check),
    description: check.description,
    why: guidance?.why ?? '',
    fix: guidance?.fix ?? '',
    banded: check.banded === true,
    requires: requirementOf(check.code),
    blocker: BLOCKER_CODES.includes(check.code),
    scoring: scoringOf(check),
  };
}

let docs: readonly CheckDoc[] | null = null;

/** Every check of the catalog, in catalog order (category, then as listed). */
export function checkDocs(): readonly CheckDoc[] {
  docs ??= (CHECK_CATALOG as readonly CheckDefinition[]).map(toDoc);
  return docs;
}

/** One check, or undefined for a code the catalog does not have. */
export function checkDoc(code: string): CheckDoc | undefined {
  return checkDocs().find((doc) => doc.code === code);
}
