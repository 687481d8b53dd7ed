/**
 * The audit check catalog (docs/scores.md): one row per stable code, in report order, derived from the check
 * definitions (check-definitions.ts: one `defineCheck` per code, in family files under meta/, content/, links/,
 * technical/, rendering/ and performance/). Thresholds live in check-thresholds.ts.
 */
import { CHECK_DEFINITIONS } from './check-definitions.js';
import type { CheckDefinition, CheckScope } from './check-kinds.js';

export {
  CATEGORIES,
  SEVERITIES,
  SEVERITY_WEIGHTS,
  chargedScope,
  maxSeverity,
  type Category,
  type CheckDefinition,
  type CheckNeeds,
  type CheckScope,
  type Severity,
} from './check-kinds.js';

type Defined = (typeof CHECK_DEFINITIONS)[number];
/** One catalog entry per definition, its code and scope kept exact (so `scope === 'page'` narrows the code). */
type CatalogEntry<D> = D extends { code: infer C extends string; scope: infer S extends CheckScope }
  ? CheckDefinition & { code: C; scope: S }
  : never;

export type CheckCode = Defined['code'];
export type PageCheckCode = Extract<Defined, { scope: 'page' }>['code'];
export type SiteCheckCode = Extract<Defined, { scope: 'site' }>['code'];

export const CHECK_CATALOG: readonly CatalogEntry<Defined>[] = CHECK_DEFINITIONS.map((check) => {
  const entry: CheckDefinition = {
    code: check.code,
    title: check.title,
    severity: check.severity,
    category: check.category,
    scope: check.scope,
    description: check.description,
  };
  if (check.banded) entry.banded = true;
  if (check.siteFact) entry.siteFact = true;
  if ('fixUnit' in check && check.fixUnit) entry.fixUnit = check.fixUnit;
  if ('fixSeverity' in check && check.fixSeverity) entry.fixSeverity = check.fixSeverity;
  if ('shownWorse' in check && check.shownWorse) entry.shownWorse = true;
  if ('bySpread' in check && check.bySpread) entry.bySpread = true;
  if ('blocker' in check && check.blocker) entry.blocker = true;
  if ('lighthouseScored' in check && check.lighthouseScored) entry.lighthouseScored = true;
  return entry as CatalogEntry<Defined>;
});

export const CHECKS_BY_CODE: ReadonlyMap<string, CheckDefinition> = new Map(
  CHECK_CATALOG.map((check) => [check.code, check]),
);

/** Codes whose failure shows a page worse in search (`shownWorse`): health counts such a page as 2/3 of a healthy. */
export const SHOWN_WORSE_CODES: readonly string[] = CHECK_CATALOG.filter((check) => check.shownWorse).map(
  (check) => check.code,
);

/** Codes measured in a lab browser (`needs: 'LAB_BROWSER'`): the engine runs them on each lab measurement. */
export const LAB_CHECK_CODES: ReadonlySet<string> = new Set(
  CHECK_DEFINITIONS.filter((check) => 'needs' in check && check.needs === 'LAB_BROWSER').map((check) => check.code),
);

/** Codes that compare the raw HTML with the rendered page (`needs: 'RENDERING_MODE'`): browser rendering mode only. */
export const RENDERING_CHECK_CODES: ReadonlySet<string> = new Set(
  CHECK_DEFINITIONS.filter((check) => 'needs' in check && check.needs === 'RENDERING_MODE').map((check) => check.code),
);

/** Page-scope codes the site pass decides again per page (`sitePass`), which the page pass may already have decided. */
export const SITE_PASS_CODES: ReadonlySet<string> = new Set(
  CHECK_DEFINITIONS.filter((check) => 'sitePass' in check && check.sitePass).map((check) => check.code),
);

/**
 * Codes whose verdicts read the answers of other hosts (`externalVerdicts`: external link targets, canonicals,
 * hreflang, AMP and pagination targets on other sites). While an audit's external checks still run, these are not
 * evaluated: the audit is readable without them, and their verdicts fold in when the checks end.
 */
export const EXTERNAL_VERDICT_CODES: ReadonlySet<string> = new Set(
  CHECK_DEFINITIONS.filter((check) => 'externalVerdicts' in check && check.externalVerdicts).map((check) => check.code),
);

/**
 * Page-scope codes about the requested URL (its redirects, its listing in the sitemap), not the document the
 * redirects lead to (`requestedUrl`): a redirecting URL's occurrences of these stay on its REDIRECT row.
 */
export const REQUESTED_URL_CODES: ReadonlySet<string> = new Set(
  CHECK_DEFINITIONS.filter((check) => 'requestedUrl' in check && check.requestedUrl).map((check) => check.code),
);

/**
 * A code -> the check whose fix charges its failures on URLs that crawled pages link to (`chargedWith`, a catalog
 * code: check-definitions.test.ts).
 */
export const CHARGED_WITH: ReadonlyMap<string, CheckCode> = new Map(
  CHECK_DEFINITIONS.flatMap((check) =>
    'chargedWith' in check && check.chargedWith ? [[check.code, check.chargedWith as CheckCode] as const] : [],
  ),
);

/** The catalog's entry for a code, or undefined (a code stored by an older version may have left the catalog). */
export function findCheck(code: string): CheckDefinition | undefined {
  return CHECKS_BY_CODE.get(code);
}

export function getCheck(code: string): CheckDefinition {
  const check = CHECKS_BY_CODE.get(code);
  if (!check) throw new RangeError(`unknown check code ${code}`);
  return check;
}
