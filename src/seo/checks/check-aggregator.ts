import {
  CHECK_CATALOG,
  CATEGORIES,
  SEVERITY_WEIGHTS,
  chargedScope,
  getCheck,
  maxSeverity,
  type CheckCode,
  type Severity,
} from './check-catalog.js';
import type { UrlTable } from '../page/index.js';
import type { Occurrence } from './check.types.js';
import type { CheckAggregate, CheckResult, SiteCheckOutput, SiteCheckResult } from './check-results.js';
import type { CheckFixes, FixPlace } from './check.types.js';

export interface AggregatorOptions {
  /** Occurrences kept per code (all are counted); bounds memory on very large audits. */
  maxOccurrencesPerCode?: number;
  /**
   * The crawl's URL table: pages are then numbered through their URL ids (4 bytes per URL) instead of a map of their
   * own from URL string to number.
   */
  urls?: UrlTable;
}

/**
 * Distinct causes kept per code (a fix each: a failing target, a repeated element). Past it, each further cause is
 * counted as a fix on one page: a crawl with more than 50,000 distinct broken targets is priced at least that high.
 */
export const MAX_CAUSES_PER_CODE = 50_000;

/** The fixes shown with an issue and its cost: the widest first. */
export const FIXES_LISTED = 20;

/** Per-page state of one code: not applicable < passed < failed; a later, stronger verdict wins. */
const NOT_APPLICABLE = 0;
const PASSED = 1;
const FAILED = 2;

/** `array`, or a copy at least `index + 1` long (doubling): per-page bytes grow with the crawl. */
function withRoomFor(array: Uint8Array<ArrayBuffer>, index: number): Uint8Array<ArrayBuffer> {
  if (index < array.length) return array;
  const grown = new Uint8Array(Math.max(index + 1, array.length * 2));
  grown.set(array);
  return grown;
}

class CodeState {
  /** Two bits per page (its state), four pages per byte. */
  states = new Uint8Array(16);
  applicable = 0;
  affected = 0;
  occurrences = new Map<number, Occurrence>();
  omitted = 0;
  worst: Severity | null = null;
  /** Failing pages by the severity of their result: a banded check's pages, each at its own band. */
  bySeverity: Partial<Record<Severity, number>> = {};
  /**
   * Pages per cause (a fix), for a check whose definition has `fixUnit`; `last` is the page last counted; `sum` and
   * `xor` fingerprint the set of its pages (order-free), so that causes on the very same pages are one place.
   */
  causes: Map<string, CauseState> | null = null;
  /** Causes past MAX_CAUSES_PER_CODE, each counted as a fix on one page. */
  unlistedCauses = 0;
  /** Failing pages whose cost another check's fix carries (CheckResult.chargedWith). */
  chargedElsewhere = 0;
  /** A site-scope result, with the occurrences kept (at most the aggregator's maximum) and how many it had. */
  site: { failed: boolean; applicablePages: number; occurrences: Occurrence[]; total: number } | null = null;

  set(index: number, state: number): number {
    const at = index >>> 2;
    const shift = (index & 3) * 2;
    this.states = withRoomFor(this.states, at);
    const previous = (this.states[at] >>> shift) & 3;
    if (state <= previous) return previous;
    this.states[at] = (this.states[at] & ~(3 << shift)) | (state << shift);
    if (previous === NOT_APPLICABLE) this.applicable++;
    if (state === FAILED) this.affected++;
    return previous;
  }
}

/**
 * Folds per-page check results and site results into one entry per code (one Issue per audit and
 * code). Pages are identified by URL; results for the same page and code merge (failed beats passed
 * beats not applicable), so a check may be reported both by runPageChecks and by runSiteChecks.
 * Memory: two bits per page and code plus the kept occurrences.
 */
export class CheckAggregator {
  private readonly pageIndex: PageIndex;
  private readonly codes = new Map<string, CodeState>();
  /** Pages (by index) with a failing CRITICAL result: the score's health counts the pages without one. */
  private critical = new Uint8Array(64);
  /** Pages (by index) failing a check that shows them worse in search (`shownWorse`): 2/3 of a healthy page each. */
  private shownWorse = new Uint8Array(64);
  private readonly maxOccurrences: number;

  constructor(options: AggregatorOptions = {}) {
    this.maxOccurrences = options.maxOccurrencesPerCode ?? Number.POSITIVE_INFINITY;
    this.pageIndex = options.urls ? new UrlPageIndex(options.urls) : new MapPageIndex();
  }

  addPageResults(url: string, results: readonly CheckResult[]): void {
    const index = this.pageIndex.add(url);
    for (const result of results) {
      if (!result.applicable) continue;
      const state = this.state(result.code);
      const previous = state.set(index, result.failed ? FAILED : PASSED);
      if (!result.failed) continue;
      const check = getCheck(result.code);
      const severity = result.severity ?? check.severity;
      // A site fact (no HTTPS, no compression...) is charged once for the site: it makes no page "critical".
      if (severity === 'CRITICAL' && !check.siteFact) this.critical = mark(this.critical, index);
      if (check.shownWorse) this.shownWorse = mark(this.shownWorse, index);
      if (check.fixUnit && result.causes) this.countCauses(state, index, result.causes);
      if (previous === FAILED) continue;
      if (result.chargedWith !== undefined) state.chargedElsewhere++;
      state.worst = state.worst === null ? severity : maxSeverity(state.worst, severity);
      state.bySeverity[severity] = (state.bySeverity[severity] ?? 0) + 1;
      if (state.occurrences.size < this.maxOccurrences) {
        const occurrence: Occurrence = { url };
        if (result.evidence !== undefined) occurrence.evidence = result.evidence;
        if (result.severity !== undefined) occurrence.severity = result.severity;
        state.occurrences.set(index, occurrence);
      } else {
        state.omitted++;
      }
    }
  }

  /** How many of these pages have a failing CRITICAL page result (unknown URLs have none). */
  pagesWithCritical(urls: Iterable<string>): number {
    let count = 0;
    for (const url of urls) {
      const index = this.pageIndex.get(url);
      if (index !== -1 && index < this.critical.length && this.critical[index]) count++;
    }
    return count;
  }

  /**
   * How many of these pages fail a check that shows them worse in search (`shownWorse`) and have no CRITICAL page
   * result: health counts each as 2/3 of a healthy page.
   */
  pagesShownWorse(urls: Iterable<string>): number {
    let count = 0;
    for (const url of urls) {
      const index = this.pageIndex.get(url);
      if (index === -1 || index >= this.shownWorse.length || !this.shownWorse[index]) continue;
      if (index < this.critical.length && this.critical[index]) continue;
      count++;
    }
    return count;
  }

  private countCauses(state: CodeState, index: number, causes: readonly string[]): void {
    state.causes ??= new Map();
    for (const cause of causes) {
      const known = state.causes.get(cause);
      if (known) {
        if (known.last !== index) {
          known.pages++;
          known.last = index;
          known.sum = (known.sum + mix(index)) >>> 0;
          known.xor = (known.xor ^ mix(index ^ 0x5bd1e995)) >>> 0;
        }
      } else if (state.causes.size < MAX_CAUSES_PER_CODE) {
        state.causes.set(cause, { pages: 1, last: index, sum: mix(index), xor: mix(index ^ 0x5bd1e995) });
      } else {
        state.unlistedCauses++;
      }
    }
  }

  addSiteResults(results: readonly SiteCheckResult[]): void {
    for (const result of results) {
      if (!result.applicable) continue;
      // Only the occurrences kept: a site check's thousands of duplicates are not held for the rest of the audit.
      const occurrences = result.occurrences.slice(0, this.maxOccurrences);
      const { failed, applicablePages } = result;
      this.state(result.code).site = { failed, applicablePages, occurrences, total: result.occurrences.length };
    }
  }

  addSiteOutput(output: SiteCheckOutput): void {
    this.addSiteResults(output.site);
    for (const page of output.pages) this.addPageResults(page.url, page.results);
  }

  /** Every applicable check, passing ones included (the score needs them), in catalog order. */
  aggregates(): CheckAggregate[] {
    const out: CheckAggregate[] = [];
    for (const check of CHECK_CATALOG) {
      const state = this.codes.get(check.code);
      if (!state) continue;
      if (state.site) {
        const { occurrences, total } = state.site;
        out.push({
          code: check.code,
          title: check.title,
          description: check.description,
          severity: check.severity,
          category: check.category,
          scope: check.scope,
          affectedPages: state.site.failed ? Math.max(1, total) : 0,
          applicablePages: Math.max(1, state.site.applicablePages),
          occurrences: [...occurrences],
          omittedOccurrences: total - occurrences.length,
        });
      } else if (state.applicable > 0) {
        const aggregate: CheckAggregate = {
          code: check.code,
          title: check.title,
          description: check.description,
          severity: state.worst ?? check.severity,
          category: check.category,
          // A site fact's pages are its evidence; it is charged once, as a site-level issue.
          scope: chargedScope(check),
          affectedPages: state.affected,
          applicablePages: state.applicable,
          occurrences: [...state.occurrences.values()],
          omittedOccurrences: state.omitted,
        };
        // Pages at different severities (a banded check's bands): each page is charged at its own.
        if (Object.keys(state.bySeverity).length > 1) aggregate.affectedBySeverity = { ...state.bySeverity };
        if (state.causes && state.affected > 0) aggregate.fixes = fixesOf(state);
        if (state.chargedElsewhere > 0) aggregate.chargedElsewhere = state.chargedElsewhere;
        out.push(aggregate);
      }
    }
    return out;
  }

  private state(code: CheckCode): CodeState {
    let state = this.codes.get(code);
    if (!state) {
      state = new CodeState();
      this.codes.set(code, state);
    }
    return state;
  }
}

/** One cause's pages: how many, the last counted, and an order-free fingerprint of the set (sum and xor of a mix). */
interface CauseState {
  pages: number;
  last: number;
  sum: number;
  xor: number;
}

/** murmur3's 32-bit finalizer: spreads page numbers so that sums and xors of different page sets differ. */
function mix(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** `flags` with page `index` set (grown as needed). */
function mark(flags: Uint8Array<ArrayBuffer>, index: number): Uint8Array<ArrayBuffer> {
  const grown = withRoomFor(flags, index);
  grown[index] = 1;
  return grown;
}

/**
 * A code's fixes: every fix's reach (widest first), the widest listed with their cause, and the places they are in
 * (fixes on the very same pages: one template's list of dead links is fixed in one place). Causes past
 * MAX_CAUSES_PER_CODE are each a fix on one page, in a place of its own.
 */
function fixesOf(state: CodeState): CheckFixes {
  const entries = [...state.causes!.entries()].sort((a, b) => b[1].pages - a[1].pages || a[0].localeCompare(b[0]));
  const reach = entries.map(([, c]) => c.pages);
  const places = new Map<string, FixPlace>();
  for (const [, c] of entries) {
    const key = `${c.pages}:${c.sum}:${c.xor}`;
    const place = places.get(key);
    if (place) place.fixes++;
    else places.set(key, { pages: c.pages, fixes: 1 });
  }
  const placed = [...places.values()];
  for (let i = 0; i < state.unlistedCauses; i++) {
    reach.push(1);
    placed.push({ pages: 1, fixes: 1 });
  }
  return {
    count: reach.length,
    listed: entries.slice(0, FIXES_LISTED).map(([cause, c]) => ({ cause, pages: c.pages })),
    reach,
    places: placed,
  };
}

/** Pages numbered 0, 1, 2… in the order their URLs were first added. */
interface PageIndex {
  /** The URL's number, given the next one when new. */
  add(url: string): number;
  /** The URL's number, or -1. */
  get(url: string): number;
}

class MapPageIndex implements PageIndex {
  private readonly numbers = new Map<string, number>();

  add(url: string): number {
    let index = this.numbers.get(url);
    if (index === undefined) {
      index = this.numbers.size;
      this.numbers.set(url, index);
    }
    return index;
  }

  get(url: string): number {
    return this.numbers.get(url) ?? -1;
  }
}

/** Page numbers by URL id of a UrlTable (-1: not a page). */
class UrlPageIndex implements PageIndex {
  private numbers = new Int32Array(1024).fill(-1);
  private pages = 0;

  constructor(private readonly urls: UrlTable) {}

  add(url: string): number {
    const id = this.urls.intern(url);
    if (id >= this.numbers.length) {
      const grown = new Int32Array(Math.max(id + 1, this.numbers.length * 2)).fill(-1);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    if (this.numbers[id] === -1) this.numbers[id] = this.pages++;
    return this.numbers[id];
  }

  get(url: string): number {
    const id = this.urls.idOf(url);
    return id === -1 || id >= this.numbers.length ? -1 : this.numbers[id];
  }
}

/** One-shot form of CheckAggregator. */
export function aggregateChecks(
  pages: readonly { url: string; results: readonly CheckResult[] }[],
  site?: SiteCheckOutput,
  options?: AggregatorOptions,
): CheckAggregate[] {
  const aggregator = new CheckAggregator(options);
  for (const page of pages) aggregator.addPageResults(page.url, page.results);
  if (site) aggregator.addSiteOutput(site);
  return aggregator.aggregates();
}

/** The failing aggregates, most severe first, then by category and affected pages: the audit's issue list. */
export function failingIssues(aggregates: readonly CheckAggregate[]): CheckAggregate[] {
  return aggregates
    .filter((aggregate) => aggregate.affectedPages > 0)
    .sort(
      (a, b) =>
        SEVERITY_WEIGHTS[b.severity] - SEVERITY_WEIGHTS[a.severity] ||
        CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) ||
        b.affectedPages - a.affectedPages ||
        a.code.localeCompare(b.code),
    );
}
