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
  return entry as CatalogEntry<Defined>;
});

export const CHECKS_BY_CODE: ReadonlyMap<string, CheckDefinition> = new Map(
  CHECK_CATALOG.map((check) => [check.code, check]),
);

/** Codes whose failure shows a page worse in search (`shownWorse`): health counts such a page as half a healthy one. */
export const SHOWN_WORSE_CODES: readonly string[] = CHECK_CATALOG.filter((check) => check.shownWorse).map(
  (check) => check.code,
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
