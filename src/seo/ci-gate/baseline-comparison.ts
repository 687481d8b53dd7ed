import { CHECK_CATALOG, SEVERITY_WEIGHTS, type Severity } from '../checks/index.js';

/**
 * One issue occurrence as the CI gate sees it: a check code on a URL. Its severity is its issue's in the audit that
 * found it, as the platform stores and shows it (for the banded performance checks, the worst band that audit found).
 */
export interface GateOccurrence {
  code: string;
  url: string;
  severity: Severity;
  title: string;
  category: string;
  /** The check's evidence on this URL, when the run recorded it (a baseline file may not carry it). */
  evidence?: unknown;
}

/** This run's occurrences against a baseline's, each list sorted most severe first, then by code and URL. */
export interface OccurrenceComparison {
  /** In this run, not in the baseline. */
  new: GateOccurrence[];
  /** In the baseline, not in this run (as the baseline recorded them). */
  fixed: GateOccurrence[];
  /** In both (as this run found them). */
  unchanged: GateOccurrence[];
}

/** An occurrence's identity: its check code and its URL, nothing else (titles and evidence may change). */
export const occurrenceKey = (o: Pick<GateOccurrence, 'code' | 'url'>): string => `${o.code}\u0000${o.url}`;

/** Most severe first, then by code and URL: the order every report of the gate uses. */
export function byGateOrder(a: GateOccurrence, b: GateOccurrence): number {
  return (
    SEVERITY_WEIGHTS[b.severity] - SEVERITY_WEIGHTS[a.severity] ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
    (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)
  );
}

/** One occurrence per (code, URL), the first seen: a site-level check may list a URL twice. */
function distinct(occurrences: readonly GateOccurrence[]): Map<string, GateOccurrence> {
  const byKey = new Map<string, GateOccurrence>();
  for (const o of occurrences) {
    const key = occurrenceKey(o);
    if (!byKey.has(key)) byKey.set(key, o);
  }
  return byKey;
}

/** The catalog's site facts (compression, caching headers, http, insecure cookies): one fact of the site each. */
const SITE_FACTS: ReadonlySet<string> = new Set(CHECK_CATALOG.filter((c) => c.siteFact).map((c) => c.code));

/** The codes of the occurrences that are site facts. */
const siteFactsOf = (occurrences: Map<string, GateOccurrence>): Set<string> =>
  new Set([...occurrences.values()].filter((o) => SITE_FACTS.has(o.code)).map((o) => o.code));

/**
 * New, fixed and unchanged occurrences of this run (`current`) against the baseline's. A site fact is compared as
 * one fact of the site, as the platform's comparison does: its occurrences are new only when the baseline has it on
 * no URL, fixed only when this run has it on none, and otherwise unchanged, whatever URLs show it (a page that
 * shrank below the compression threshold fixes nothing; a new page of a site without https is nothing new).
 */
export function compareOccurrences(
  baseline: readonly GateOccurrence[],
  current: readonly GateOccurrence[],
): OccurrenceComparison {
  const before = distinct(baseline);
  const after = distinct(current);
  const [factsBefore, factsAfter] = [siteFactsOf(before), siteFactsOf(after)];
  const comparison: OccurrenceComparison = { new: [], fixed: [], unchanged: [] };
  for (const [key, o] of after) {
    const known = SITE_FACTS.has(o.code) ? factsBefore.has(o.code) : before.has(key);
    (known ? comparison.unchanged : comparison.new).push(o);
  }
  for (const [key, o] of before)
    if (SITE_FACTS.has(o.code) ? !factsAfter.has(o.code) : !after.has(key)) comparison.fixed.push(o);
  comparison.new.sort(byGateOrder);
  comparison.fixed.sort(byGateOrder);
  comparison.unchanged.sort(byGateOrder);
  return comparison;
}
