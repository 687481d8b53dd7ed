import { normalizeUrl, resolveUrl, type JsonLdBlock, type PageFacts } from '../page/index.js';
import type { PageCheckCode, SiteCheckCode } from './check-catalog.js';
import { fail, pass, type CheckOutcome } from './check-outcome.js';
import type { LinkTargetInfo, Occurrence, SiteCheckResult } from './check.types.js';
import { isValidHreflang, isValidLangTag } from './language-tag.js';
import type { PageEvaluator } from './page-checks.js';
import { effectiveCanonical } from './page-indexability.js';
import type { PageSummaryStore } from './page-summary-store.js';
import type { SiteContext, SiteEvaluator } from './site-checks.js';
import type { SitePages } from './site-pages.js';
import { viewportDirectives } from './viewport-directives.js';
import {
  articleProblems,
  breadcrumbProblems,
  contextProblems,
  dateProblems,
  faqProblems,
  organizationProblems,
  productsWithoutOffer,
  untypedEntities,
  type RuleFindings,
} from './structured-data-rules.js';

/**
 * Structured data, international (hreflang), mobile (viewport), social (Open Graph, Twitter), AMP and pagination
 * checks (issue 28). Page codes are spread into PAGE_EVALUATORS, site codes into SITE_EVALUATORS: one evaluator per
 * code. Every evaluator is not applicable where the page gives it nothing to judge.
 */

const SAMPLE = 5;

/** Open Graph's required properties (ogp.me, "Basic Metadata"). */
export const OPEN_GRAPH_REQUIRED = ['og:title', 'og:type', 'og:image', 'og:url'] as const;
/** The card types X (Twitter) renders; photo, gallery and product were retired in 2015. */
export const TWITTER_CARD_TYPES = ['summary', 'summary_large_image', 'app', 'player'] as const;
const OG_IMAGE_PROPERTIES = ['og:image', 'og:image:url', 'og:image:secure_url'] as const;

type StructuredPageCode = Extract<
  PageCheckCode,
  | `META_JSONLD_${'NO_CONTEXT' | 'TYPE_MISSING' | 'ORGANIZATION_INCOMPLETE' | 'ARTICLE_INCOMPLETE'}`
  | `META_JSONLD_${'PRODUCT_NO_OFFER' | 'BREADCRUMB_INVALID' | 'FAQ_INVALID' | 'DATE_INVALID'}`
  | 'META_HREFLANG_DUPLICATE'
  | 'META_HREFLANG_LANG_MISMATCH'
  | 'META_VIEWPORT_NOT_RESPONSIVE'
  | 'META_VIEWPORT_MULTIPLE'
  | `META_OG_${'INCOMPLETE' | 'IMAGE_RELATIVE' | 'URL_MISMATCH'}`
  | 'META_TWITTER_CARD_INVALID'
  | 'TECH_AMP_NO_CANONICAL'
  | 'LINKS_PAGINATION_NOINDEX'
>;

type StructuredSiteCode = Extract<
  SiteCheckCode,
  'META_HREFLANG_TO_BROKEN' | 'META_HREFLANG_TO_NON_INDEXABLE' | 'TECH_AMP_LINK_BROKEN' | 'LINKS_PAGINATION_BROKEN'
>;

export const STRUCTURED_PAGE_EVALUATORS: Readonly<
  Record<Exclude<StructuredPageCode, 'LINKS_PAGINATION_NOINDEX' | 'TECH_AMP_NO_CANONICAL'>, PageEvaluator>
> = {
  META_JSONLD_NO_CONTEXT: ({ html }) =>
    jsonLdRule(html, contextProblems, (problems) => ({
      count: problems.length,
      contexts: problems.slice(0, SAMPLE).map((problem) => problem.context),
    })),
  META_JSONLD_TYPE_MISSING: ({ html }) =>
    jsonLdRule(html, untypedEntities, (problems) => ({
      count: problems.length,
      entities: problems.slice(0, SAMPLE),
    })),
  META_JSONLD_ORGANIZATION_INCOMPLETE: ({ html }) =>
    jsonLdRule(html, organizationProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
  META_JSONLD_ARTICLE_INCOMPLETE: ({ html }) =>
    jsonLdRule(html, articleProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
  META_JSONLD_PRODUCT_NO_OFFER: ({ html }) =>
    jsonLdRule(html, productsWithoutOffer, (problems) => ({
      count: problems.length,
      products: problems.slice(0, SAMPLE).map((problem) => problem.name),
    })),
  META_JSONLD_BREADCRUMB_INVALID: ({ html }) =>
    jsonLdRule(html, breadcrumbProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
  META_JSONLD_FAQ_INVALID: ({ html }) =>
    jsonLdRule(html, faqProblems, (problems) => ({ entities: problems.slice(0, SAMPLE) })),
  META_JSONLD_DATE_INVALID: ({ html }) =>
    jsonLdRule(html, dateProblems, (problems) => ({ count: problems.length, dates: problems.slice(0, SAMPLE) })),

  META_HREFLANG_DUPLICATE: ({ html }) => {
    if (!html || html.hreflang.length === 0) return null;
    const byLang = new Map<string, Set<string>>();
    for (const entry of html.hreflang) {
      const url = entry.url === null ? null : normalizeUrl(entry.url);
      if (url === null) continue;
      const lang = entry.lang.trim().toLowerCase();
      const urls = byLang.get(lang) ?? new Set<string>();
      urls.add(url);
      byLang.set(lang, urls);
    }
    if (byLang.size === 0) return null;
    const duplicates = [...byLang]
      .filter(([, urls]) => urls.size > 1)
      .map(([lang, urls]) => ({ lang, urls: [...urls].slice(0, SAMPLE) }));
    return duplicates.length > 0 ? fail({ duplicates: duplicates.slice(0, SAMPLE) }) : pass();
  },
  META_HREFLANG_LANG_MISMATCH: ({ html, page }) => {
    if (!html || html.hreflang.length === 0 || html.lang === null || !isValidLangTag(html.lang)) return null;
    const self = new Set([normalizeUrl(page.finalUrl), normalizeUrl(effectiveCanonical(html) ?? page.finalUrl)]);
    const selfLangs = html.hreflang
      .filter((entry) => entry.url !== null && self.has(normalizeUrl(entry.url)))
      .map((entry) => entry.lang.trim())
      .filter((lang) => lang.toLowerCase() !== 'x-default' && isValidHreflang(lang));
    if (selfLangs.length === 0) return null;
    const language = primaryLanguage(html.lang);
    return selfLangs.some((lang) => primaryLanguage(lang) === language)
      ? pass()
      : fail({ lang: html.lang, hreflang: unique(selfLangs).slice(0, SAMPLE) });
  },

  META_VIEWPORT_NOT_RESPONSIVE: ({ html }) => {
    if (!html || html.viewport === null || html.viewport.trim() === '') return null;
    const reason = viewportProblem(html.viewport);
    return reason === null ? pass() : fail({ viewport: html.viewport, reason });
  },
  META_VIEWPORT_MULTIPLE: ({ html }) => {
    if (!html || html.viewportCount === undefined || html.viewportCount === 0) return null;
    return html.viewportCount > 1 ? fail({ count: html.viewportCount }) : pass();
  },

  META_OG_INCOMPLETE: ({ html }) => {
    if (!html || !Object.keys(html.openGraph).some((key) => key.startsWith('og:'))) return null;
    const has = (key: string) => (html.openGraph[key] ?? '').trim() !== '';
    const missing = OPEN_GRAPH_REQUIRED.filter((key) =>
      key === 'og:image' ? !OG_IMAGE_PROPERTIES.some(has) : !has(key),
    );
    return missing.length > 0 ? fail({ missing }) : pass();
  },
  META_OG_IMAGE_RELATIVE: ({ html }) => {
    const images = OG_IMAGE_PROPERTIES.flatMap((property) => {
      const value = html?.openGraph[property]?.trim();
      return value ? [{ property, value }] : [];
    });
    if (images.length === 0) return null;
    const relative = images.filter((image) => !/^https?:\/\/[^/\s]/i.test(image.value));
    return relative.length > 0 ? fail({ images: relative }) : pass();
  },
  META_OG_URL_MISMATCH: ({ html }) => {
    const written = html?.openGraph['og:url']?.trim();
    const canonical = html ? effectiveCanonical(html) : null;
    if (!html || !written || canonical === null) return null;
    const ogUrl = resolveUrl(written, html.baseUrl);
    const resolved = ogUrl ? normalizeUrl(ogUrl.href) : null;
    if (resolved === null) return fail({ ogUrl: written, canonical });
    return resolved === normalizeUrl(canonical) ? pass() : fail({ ogUrl: written, canonical });
  },
  META_TWITTER_CARD_INVALID: ({ html }) => {
    const card = html?.twitter['twitter:card']?.trim();
    if (!card) return null;
    return (TWITTER_CARD_TYPES as readonly string[]).includes(card.toLowerCase()) ? pass() : fail({ card });
  },
};

/** The LINKS and TECHNICAL page codes of the family, spread where their category is (catalog order). */
export const STRUCTURED_LINK_EVALUATORS: Readonly<Record<'LINKS_PAGINATION_NOINDEX', PageEvaluator>> = {
  LINKS_PAGINATION_NOINDEX: ({ html }) => {
    const series = html?.pagination;
    if (!html || !series || series.length === 0) return null;
    return html.robots.noindex
      ? fail({
          sources: html.robots.noindexSources,
          links: series.slice(0, SAMPLE).map((link) => ({ rel: link.rel, url: link.url ?? link.href })),
        })
      : pass();
  },
};

export const STRUCTURED_TECH_EVALUATORS: Readonly<Record<'TECH_AMP_NO_CANONICAL', PageEvaluator>> = {
  TECH_AMP_NO_CANONICAL: ({ html }) => {
    if (!html?.amp) return null;
    return html.canonicals.some((canonical) => canonical.href !== '') ? pass() : fail();
  },
};

export const STRUCTURED_SITE_EVALUATORS: Readonly<Record<StructuredSiteCode, SiteEvaluator>> = {
  META_HREFLANG_TO_BROKEN: (ctx) =>
    targetCheck(ctx, 'META_HREFLANG_TO_BROKEN', hreflangTargets, (verdict) => verdict.broken),
  META_HREFLANG_TO_NON_INDEXABLE: (ctx) =>
    targetCheck(ctx, 'META_HREFLANG_TO_NON_INDEXABLE', hreflangTargets, (verdict) => verdict.nonIndexable),
  TECH_AMP_LINK_BROKEN: (ctx) =>
    targetCheck(
      ctx,
      'TECH_AMP_LINK_BROKEN',
      (store, row) => {
        const ampHtml = store.ampHtml(row);
        return ampHtml ? [{ label: 'amphtml', url: ampHtml }] : [];
      },
      (verdict) => verdict.broken,
    ),
  LINKS_PAGINATION_BROKEN: (ctx) =>
    targetCheck(
      ctx,
      'LINKS_PAGINATION_BROKEN',
      (store, row) => (store.pagination(row) ?? []).map((link) => ({ label: link.rel, url: link.url })),
      (verdict) => verdict.broken,
    ),
};

function jsonLdRule<P>(
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

function primaryLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0];
}

function unique<V>(values: readonly V[]): V[] {
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

function hreflangTargets(store: PageSummaryStore, row: number): Target[] {
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
function targetCheck(
  ctx: SiteContext,
  code: StructuredSiteCode,
  targetsOf: (store: PageSummaryStore, row: number) => Target[],
  pick: (verdict: TargetVerdict) => { status: number | null; reason: string; canonical?: string } | null,
): SiteCheckResult {
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
