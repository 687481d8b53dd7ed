import type { PageFacts } from '../page/index.js';
import { CHECK_CATALOG, type PageCheckCode } from './check-catalog.js';
import { CHECK_DEFINITIONS } from './check-definitions.js';
import type { CheckOutcome } from './check-outcome.js';
import type { PageFetch } from './check.types.js';
import type { CheckResult } from './check-results.js';
import { evaluateLinkTargets, type LinkTargetVerdicts } from './link-target-checks.js';
import type { PageCheckContext, PageEvaluator } from './page-check-helpers.js';
import { effectiveCanonical, nonIndexableReason } from './page-indexability.js';

export type { PageCheckContext, PageEvaluator } from './page-check-helpers.js';

/** Every page-scope code, in catalog order. */
export const PAGE_CHECK_CODES: readonly PageCheckCode[] = CHECK_CATALOG.filter((check) => check.scope === 'page').map(
  (check) => check.code as PageCheckCode,
);

/**
 * One evaluator per page-scope code: each page-scope definition's `evaluate` (check-definitions.ts). Codes decided
 * from what the crawl learned about link and resource targets delegate to evaluateLinkTargets (the site pass calls it
 * too, from page summaries); header-based codes read the shared response verdicts (../headers/response-verdicts.ts)
 * that the headers tool reads.
 */
export const PAGE_EVALUATORS: Readonly<Record<PageCheckCode, PageEvaluator>> = Object.fromEntries(
  CHECK_DEFINITIONS.flatMap((check) => (check.scope === 'page' ? [[check.code, check.evaluate]] : [])),
) as Record<PageCheckCode, PageEvaluator>;

/**
 * Runs every page-scope check on one fetched page. `facts` is null for non-HTML responses and for
 * fetch failures. Link-target checks run only when `page.linkTargets` is given (otherwise the site
 * pass evaluates them from page summaries). Returns one result per page-scope code, in catalog order.
 */
export function runPageChecks(facts: PageFacts | null, page: PageFetch): CheckResult[] {
  const ok = page.status >= 200 && page.status < 300;
  let finalUrl: URL | null;
  try {
    finalUrl = new URL(page.finalUrl);
  } catch {
    finalUrl = null;
  }
  let targets: LinkTargetVerdicts | null | undefined;
  const reason = nonIndexableReason(facts, page);
  // A redirect stub (an instant meta refresh to another URL) is no page of its own: its on-page checks do not apply.
  const html = ok && reason !== 'redirect' ? facts : null;
  const ctx: PageCheckContext = {
    facts,
    html,
    page,
    ok,
    responded: page.status > 0,
    finalUrl,
    https: finalUrl?.protocol === 'https:',
    indexable: ok && reason === null,
    linkTargets: () => {
      if (targets !== undefined) return targets;
      targets = html && page.linkTargets ? linkTargetOutcomes(html, page) : null;
      return targets;
    },
  };
  return PAGE_CHECK_CODES.map((code) => toResult(code, PAGE_EVALUATORS[code](ctx)));
}

function toResult(code: PageCheckCode, outcome: CheckOutcome): CheckResult {
  if (outcome === null) return { code, applicable: false, failed: false };
  const result: CheckResult = { code, applicable: true, failed: outcome.failed };
  if (outcome.severity !== undefined) result.severity = outcome.severity;
  if (outcome.evidence !== undefined) result.evidence = outcome.evidence;
  if (outcome.causes !== undefined) result.causes = outcome.causes;
  return result;
}

function linkTargetOutcomes(facts: PageFacts, page: PageFetch): LinkTargetVerdicts {
  const internal = new Set<string>();
  const external = new Set<string>();
  for (const link of facts.links) {
    if (link.kind !== 'http' || link.url === null) continue;
    (link.internal ? internal : external).add(link.url);
  }
  const targets = page.linkTargets!;
  return evaluateLinkTargets(
    {
      selfUrl: page.finalUrl,
      selfNoindex: facts.robots.noindex,
      internalLinks: [...internal],
      externalLinks: [...external],
      canonical: effectiveCanonical(facts),
      resources: facts.resources,
    },
    (url) => targets.get(url),
  );
}
