import { normalizeUrl, type JsonLdBlock, type PageFacts } from '../page/index.js';
import { fail, pass, type CheckOutcome } from './check-outcome.js';
import type { LinkTargetInfo, Occurrence } from './check.types.js';
import type { PageSummaryStore } from './page-summary-store.js';
import type { SiteContext, SiteVerdict } from './site-check-helpers.js';
import type { SitePages } from './site-pages.js';
import { type RuleFindings } from './structured-data-rules.js';
import { viewportDirectives } from './viewport-directives.js';

/**
 * Structured data, international (hreflang), mobile (viewport), social (Open Graph, Twitter), AMP and pagination
 * checks (issue 28): what their evaluators (each definition's `evaluate`) share. Every evaluator is not applicable
 * where the page gives it nothing to judge.
 */

export const SAMPLE = 5;

/** Open Graph's required properties (ogp.me, "Basic Metadata"). */
export const OPEN_GRAPH_REQUIRED = ['og:title', 'og:type', 'og:image', 'og:url'] as const;
/** The card types X (Twitter) renders; photo, gallery and product were retired in 2015. */
export const TWITTER_CARD_TYPES = ['summary', 'summary_large_image', 'app', 'player'] as const;
export const OG_IMAGE_PROPERTIES = ['og:image', 'og:image:url', 'og:image:secure_url'] as const;

export function jsonLdRule<P>(
  html: PageFacts | null,
  rule: (blocks: readonly JsonLdBlock[]) => RuleFindings<P>,
  evidence: (problems: P[]) => Record<string, unknown>,
): CheckOutcome {
  if (!html || !html.jsonLd.some((block) => block.ok)) return null;
  const findings = rule(html.jsonLd);
  if (findings.checked === 0) return null;
  return findings.problems.length > 0 ? fail(evidence(findings.problems)) : pass();
}

/**
 * Why the viewport does not adapt to the screen, or null when it does: a numeric width fixes the layout width
 * (Google's "viewport not set to device-width"); without a width, an initial-scale makes browsers use the device
 * width (Lighthouse's viewport audit accepts either), and with neither the page renders at 980 px.
 */
export function viewportProblem(content: string): string | null {
  let width: string | null = null;
  let initialScale = false;
  for (const [key, value] of viewportDirectives(content)) {
    if (key === 'width') width = value;
    if (key === 'initial-scale' && value !== '') initialScale = true;
  }
  if (width !== null && width !== 'device-width') return `fixed width=${width}`;
  if (width === null && !initialScale) return 'no width=device-width and no initial-scale';
  return null;
}

export function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0];
}

export function unique<V>(values: readonly V[]): V[] {
  return [...new Set(values)];
}

// --- site checks: what the crawl knows of the targets of hreflang, amphtml and rel=next/prev links ---

interface Target {
  /** The hreflang value, "amphtml", "next" or "prev". */
  label: string;
  url: string;
}

interface TargetVerdict {
  /** 4xx/5xx (429 aside), no response, or a redirect: the reason in words. */
  broken: { status: number | null; reason: string } | null;
  /** A 2xx HTML document that is noindex or canonicalized to another URL. */
  nonIndexable: { status: number | null; reason: string; canonical?: string } | null;
}

export function hreflangTargets(store: PageSummaryStore, row: number): Target[] {
  // Only indexable pages: the hreflang of a page search engines drop is not read.
  if (!store.indexable(row)) return [];
  const self = normalizeUrl(store.finalUrl(row));
  return store
    .hreflang(row)
    .filter((entry) => normalizeUrl(entry.url) !== self)
    .map((entry) => ({ label: entry.lang, url: entry.url }));
}

/**
 * The crawled pages by requested and final URL (a row per URL id, -1 for none), built once per audit and only when a
 * check needs it.
 */
const PAGE_INDEX = new WeakMap<SitePages, Int32Array>();

function pageIndex(pages: SitePages): Int32Array {
  let index = PAGE_INDEX.get(pages);
  if (index) return index;
  const store = pages.store;
  index = new Int32Array(store.urls.size).fill(-1);
  for (let row = 0; row < store.size; row++) {
    const final = pages.normFinal(row);
    // A final URL's own fetch wins over a redirect that ended there.
    if (final !== -1 && (index[final] === -1 || !store.redirected(row))) index[final] = row;
    const requested = pages.normUrl(row);
    if (requested !== -1 && requested !== final) index[requested] = row;
  }
  PAGE_INDEX.set(pages, index);
  return index;
}

function judgeTarget(
  url: string,
  pages: SitePages,
  extra: ReadonlyMap<string, LinkTargetInfo> | undefined,
): TargetVerdict | null {
  const key = normalizeUrl(url);
  if (key === null) return null;
  const store = pages.store;
  const index = pageIndex(pages);
  const keyId = store.urls.idOf(key);
  const page = keyId === -1 || keyId >= index.length ? -1 : index[keyId];
  if (page !== -1) {
    const status = store.status(page) === 0 ? null : store.status(page);
    const redirected = pages.normFinal(page) !== keyId || (store.status(page) >= 300 && store.status(page) < 400);
    if (status === 429) return null;
    if (status === null) return { broken: { status, reason: 'no response' }, nonIndexable: null };
    if (status >= 400) return { broken: { status, reason: `status ${status}` }, nonIndexable: null };
    if (redirected) return { broken: { status, reason: `redirects to ${store.finalUrl(page)}` }, nonIndexable: null };
    if (store.isHtml(page) && store.noindex(page)) return { broken: null, nonIndexable: { status, reason: 'noindex' } };
    const pageCanonical = store.canonical(page);
    const canonical = pageCanonical === null ? null : normalizeUrl(pageCanonical);
    if (store.isHtml(page) && canonical !== null && canonical !== key)
      return { broken: null, nonIndexable: { status, reason: 'canonicalized', canonical: pageCanonical! } };
    return { broken: null, nonIndexable: null };
  }
  const info = extra?.get(url) ?? extra?.get(key);
  if (!info || info.blockedByRobots || info.blockedAddress || info.couldNotCheck !== undefined) return null;
  if (info.status === null) {
    return info.failure === undefined ? null : { broken: { status: null, reason: info.failure }, nonIndexable: null };
  }
  if (info.status === 429) return null;
  if (info.status >= 400)
    return { broken: { status: info.status, reason: `status ${info.status}` }, nonIndexable: null };
  if (info.redirected) return { broken: { status: info.status, reason: 'redirects' }, nonIndexable: null };
  // A target checked but not crawled: its indexability is unknown.
  return { broken: null, nonIndexable: info.noindex ? { status: info.status, reason: 'noindex' } : null };
}

/**
 * One occurrence per source page with a bad target, listing them. Applies to pages with at least one target the
 * crawl knows (crawled, or checked as a link target); a target never fetched decides nothing.
 */
export function targetCheck(
  ctx: SiteContext,
  code: string,
  targetsOf: (store: PageSummaryStore, row: number) => Target[],
  pick: (verdict: TargetVerdict) => { status: number | null; reason: string; canonical?: string } | null,
): SiteVerdict {
  const pages = ctx.pages;
  const store = pages.store;
  // Only pages with hreflang, amphtml or rel=next/prev links have targets.
  const sources = [...store.rowsWithLinkExtras()].filter((row) => {
    const status = store.status(row);
    return (
      pages.isUnique(row) && store.isHtml(row) && status >= 200 && status < 300 && targetsOf(store, row).length > 0
    );
  });
  if (sources.length === 0) return { code, applicable: false, failed: false, occurrences: [], applicablePages: 0 };
  const occurrences: Occurrence[] = [];
  let applicable = 0;
  for (const row of sources) {
    let known = 0;
    const bad: Record<string, unknown>[] = [];
    for (const target of targetsOf(store, row)) {
      const verdict = judgeTarget(target.url, pages, ctx.input.linkTargets);
      if (verdict === null) continue;
      known++;
      const problem = pick(verdict);
      if (problem && bad.length < SAMPLE) bad.push({ label: target.label, url: target.url, ...problem });
    }
    if (known === 0) continue;
    applicable++;
    if (bad.length > 0) occurrences.push({ url: store.finalUrl(row), evidence: { targets: bad } });
  }
  if (applicable === 0) return { code, applicable: false, failed: false, occurrences: [], applicablePages: 0 };
  return { code, applicable: true, failed: occurrences.length > 0, occurrences, applicablePages: applicable };
}
