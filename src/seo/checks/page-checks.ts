import {
  firstHeader,
  isAbsoluteUrl,
  isHtmlContentType,
  isLoopbackHost,
  normalizeUrl,
  withoutFragment,
  type LinkFact,
  type PageFacts,
} from '../page/index.js';
import {
  cacheVerdict,
  compressionVerdict,
  isPlainHttp,
  isRedirectChain,
  isStaticAssetResponse,
  parseResponseHeaders,
} from '../headers/response-verdicts.js';
import { CHECK_CATALOG, type PageCheckCode } from './check-catalog.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type { CheckResult, PageFetch } from './check.types.js';
import { banded, fail, pass, type CheckOutcome } from './check-outcome.js';
import { genericLinkTexts, isGenericLinkText } from './generic-link-text.js';
import {
  HYGIENE_CONTENT_EVALUATORS,
  HYGIENE_LINK_EVALUATORS,
  HYGIENE_PERF_EVALUATORS,
  HYGIENE_TECH_EVALUATORS,
} from './hygiene-checks.js';
import { isValidHreflang, isValidLangTag } from './language-tag.js';
import { viewportDirectives } from './viewport-directives.js';
import { evaluateLinkTargets, type LinkTargetCode } from './link-target-checks.js';
import {
  canonicalOtherHost,
  effectiveCanonical,
  isWebUrl,
  nonIndexableReason,
  sitemapListingOutcome,
  wasRedirected,
} from './page-indexability.js';
import { RENDERING_EVALUATORS, clientRenderedSuspected } from './rendering-checks.js';
import { checkStructuredData } from './structured-data-rules.js';
import {
  STRUCTURED_LINK_EVALUATORS,
  STRUCTURED_PAGE_EVALUATORS,
  STRUCTURED_TECH_EVALUATORS,
} from './structured-international-checks.js';

/** Every page-scope code, in catalog order. */
export const PAGE_CHECK_CODES: readonly PageCheckCode[] = CHECK_CATALOG.filter((check) => check.scope === 'page').map(
  (check) => check.code as PageCheckCode,
);

const SAMPLE = 5;

export interface PageCheckContext {
  facts: PageFacts | null;
  /** Facts of a page that answered 2xx; HTML checks apply only to those. */
  html: PageFacts | null;
  page: PageFetch;
  ok: boolean;
  responded: boolean;
  finalUrl: URL | null;
  https: boolean;
  indexable: boolean;
  linkTargets(): Record<LinkTargetCode, CheckOutcome> | null;
}

/** Decides one page-scope code for one fetched page. */
export type PageEvaluator = (ctx: PageCheckContext) => CheckOutcome;

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
  let targets: Record<LinkTargetCode, CheckOutcome> | null | undefined;
  const html = ok ? facts : null;
  const ctx: PageCheckContext = {
    facts,
    html,
    page,
    ok,
    responded: page.status > 0,
    finalUrl,
    https: finalUrl?.protocol === 'https:',
    indexable: ok && nonIndexableReason(facts, page) === null,
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
  return result;
}

function linkTargetOutcomes(facts: PageFacts, page: PageFetch): Record<LinkTargetCode, CheckOutcome> {
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

/**
 * One evaluator per page-scope code. Codes decided from what the crawl learned about link and resource targets
 * delegate to evaluateLinkTargets (the site pass calls it too, from page summaries); header-based codes read the
 * shared response verdicts (../headers/response-verdicts.ts) that the headers tool reads.
 */
export const PAGE_EVALUATORS: Readonly<Record<PageCheckCode, PageEvaluator>> = {
  // META
  META_TITLE_MISSING: ({ html }) =>
    html ? (firstText(html.titles) === '' ? fail({ titleCount: html.titleCount }) : pass()) : null,
  META_TITLE_TOO_SHORT: ({ html }) => lengthBelow(html && firstText(html.titles), T.titleMinChars, 'title'),
  META_TITLE_TOO_LONG: ({ html }) => lengthAbove(html && firstText(html.titles), T.titleMaxChars, 'title'),
  META_TITLE_MULTIPLE: ({ html }) =>
    html ? (html.titleCount > 1 ? fail({ count: html.titleCount, titles: html.titles.slice(0, 3) }) : pass()) : null,
  META_DESCRIPTION_MISSING: ({ html }) =>
    html ? (firstText(html.descriptions) === '' ? fail({ count: html.descriptionCount }) : pass()) : null,
  META_DESCRIPTION_TOO_SHORT: ({ html }) =>
    lengthBelow(html && firstText(html.descriptions), T.descriptionMinChars, 'description'),
  META_DESCRIPTION_TOO_LONG: ({ html }) =>
    lengthAbove(html && firstText(html.descriptions), T.descriptionMaxChars, 'description'),
  META_DESCRIPTION_MULTIPLE: ({ html }) =>
    html
      ? html.descriptionCount > 1
        ? fail({ count: html.descriptionCount, descriptions: html.descriptions.slice(0, 3) })
        : pass()
      : null,
  META_TAGS_IN_BODY: ({ html }) =>
    html ? (html.headTagsInBody.length > 0 ? fail({ tags: html.headTagsInBody }) : pass()) : null,
  META_VIEWPORT_MISSING: ({ html }) =>
    html ? (html.viewport === null || html.viewport.trim() === '' ? fail() : pass()) : null,
  META_VIEWPORT_NO_ZOOM: ({ html }) => {
    if (!html || html.viewport === null || html.viewport.trim() === '') return null;
    const reason = viewportZoomBlocker(html.viewport);
    return reason ? fail({ viewport: html.viewport, reason }) : pass();
  },
  META_LANG_MISSING: ({ html }) => (html ? (html.lang === null || html.lang === '' ? fail() : pass()) : null),
  META_LANG_INVALID: ({ html }) => {
    if (!html || html.lang === null || html.lang === '') return null;
    return isValidLangTag(html.lang) ? pass() : fail({ lang: html.lang });
  },
  META_CHARSET_MISSING: ({ html }) => (html ? (html.charset === null ? fail() : pass()) : null),
  META_DOCTYPE_MISSING: ({ html }) => (html ? (html.hasHtmlDoctype ? pass() : fail({ doctype: html.doctype })) : null),
  META_OPEN_GRAPH_MISSING: ({ html }) => {
    if (!html) return null;
    const og = html.openGraph;
    return og['og:title'] || og['og:description'] || og['og:image'] ? pass() : fail();
  },
  META_TWITTER_CARD_MISSING: ({ html }) => (html ? (html.twitter['twitter:card'] ? pass() : fail()) : null),
  META_JSONLD_INVALID: ({ html }) => {
    const blocks = html?.jsonLd.filter((block) => block.ok || !block.skipped);
    if (!blocks || blocks.length === 0) return null;
    const errors = blocks.flatMap((block) => (block.ok ? [] : [block.error]));
    return errors.length > 0 ? fail({ count: errors.length, errors: errors.slice(0, 3) }) : pass();
  },
  META_JSONLD_REQUIRED_MISSING: ({ html }) => {
    if (!html || html.jsonLd.length === 0) return null;
    const findings = checkStructuredData(html.jsonLd);
    if (findings.checked === 0) return null;
    return findings.problems.length > 0 ? fail({ entities: findings.problems.slice(0, SAMPLE) }) : pass();
  },
  META_HREFLANG_INVALID: ({ html }) => {
    if (!html || html.hreflang.length === 0) return null;
    const invalid = unique(html.hreflang.filter((entry) => !isValidHreflang(entry.lang)).map((entry) => entry.lang));
    return invalid.length > 0 ? fail({ values: invalid.slice(0, SAMPLE) }) : pass();
  },
  META_HREFLANG_RELATIVE: ({ html }) => {
    if (!html || html.hreflang.length === 0) return null;
    const relative = html.hreflang.filter((entry) => !isAbsoluteUrl(entry.href)).map((entry) => entry.href);
    return relative.length > 0 ? fail({ hrefs: relative.slice(0, SAMPLE) }) : pass();
  },
  META_HREFLANG_NO_SELF: ({ html, page }) => {
    if (!html || html.hreflang.length === 0) return null;
    const self = new Set([normalizeUrl(page.finalUrl), normalizeUrl(effectiveCanonical(html) ?? page.finalUrl)]);
    return html.hreflang.some((entry) => entry.url !== null && self.has(normalizeUrl(entry.url)))
      ? pass()
      : fail({ url: page.finalUrl });
  },
  META_HREFLANG_NO_X_DEFAULT: ({ html }) => {
    if (!html || html.hreflang.length === 0) return null;
    return html.hreflang.some((entry) => entry.lang.toLowerCase() === 'x-default') ? pass() : fail();
  },
  // Structured data, hreflang, viewport, social, AMP and pagination (structured-international-checks.ts)
  ...STRUCTURED_PAGE_EVALUATORS,

  // CONTENT
  CONTENT_H1_MISSING: ({ html }) => (html ? (html.h1Count === 0 ? fail() : pass()) : null),
  CONTENT_H1_MULTIPLE: ({ html }) =>
    html
      ? html.h1Count > 1
        ? fail({
            count: html.h1Count,
            headings: html.headings
              .filter((h) => h.level === 1)
              .slice(0, 3)
              .map((h) => h.text),
          })
        : pass()
      : null,
  CONTENT_HEADING_SKIP: ({ html }) => {
    if (!html || html.headings.length === 0) return null;
    for (let i = 1; i < html.headings.length; i++) {
      const previous = html.headings[i - 1];
      const current = html.headings[i];
      if (current.level > previous.level + 1)
        return fail({ from: `h${previous.level}`, to: `h${current.level}`, text: current.text });
    }
    return pass();
  },
  CONTENT_THIN: ({ html, indexable }) =>
    html && indexable ? (html.wordCount < T.thinContentWords ? fail({ words: html.wordCount }) : pass()) : null,
  CONTENT_IMAGE_ALT_MISSING: ({ html }) => {
    if (!html || html.images.length === 0) return null;
    const missing = html.images.filter((image) => image.alt === null);
    return missing.length > 0
      ? fail({ count: missing.length, images: missing.slice(0, SAMPLE).map(imageRef) })
      : pass();
  },
  CONTENT_IMAGE_ALT_TOO_LONG: ({ html }) => {
    const withAlt = html?.images.filter((image) => image.alt !== null && image.alt !== '');
    if (!withAlt || withAlt.length === 0) return null;
    const long = withAlt.filter((image) => codePointLength(image.alt!) > T.maxAltChars);
    return long.length > 0
      ? fail({
          count: long.length,
          images: long.slice(0, SAMPLE).map((image) => ({ src: imageRef(image), length: codePointLength(image.alt!) })),
        })
      : pass();
  },
  CONTENT_IMAGE_BROKEN: (ctx) => ctx.linkTargets()?.CONTENT_IMAGE_BROKEN ?? null,
  CONTENT_LINK_TEXT_GENERIC: ({ html, finalUrl }) => {
    const links = html?.links.filter((link) => link.kind === 'http');
    if (!links || links.length === 0) return null;
    const texts = genericLinkTexts(html!.lang);
    const self = finalUrl ? withoutFragment(finalUrl) : null;
    const generic = links.filter((link) => isGenericLinkText(link, texts, self));
    return generic.length > 0
      ? fail({
          count: generic.length,
          links: generic.slice(0, SAMPLE).map((link) => ({ href: link.href, text: link.label ?? link.text })),
        })
      : pass();
  },
  CONTENT_DUPLICATE_ID: ({ html }) =>
    html ? (html.duplicateIds.count > 0 ? fail({ ...html.duplicateIds }) : pass()) : null,
  CONTENT_LOW_TEXT_RATIO: ({ html }) => {
    if (!html || html.htmlBytes === 0) return null;
    const ratio = html.textBytes / html.htmlBytes;
    return ratio < T.minTextRatio
      ? fail({ ratio: Math.round(ratio * 1000) / 1000, textBytes: html.textBytes, htmlBytes: html.htmlBytes })
      : pass();
  },
  // Images named by file name or without a source, and filler text (hygiene-checks.ts)
  ...HYGIENE_CONTENT_EVALUATORS,

  // LINKS
  LINKS_INTERNAL_BROKEN: (ctx) => ctx.linkTargets()?.LINKS_INTERNAL_BROKEN ?? null,
  LINKS_EXTERNAL_BROKEN: (ctx) => ctx.linkTargets()?.LINKS_EXTERNAL_BROKEN ?? null,
  LINKS_TO_REDIRECT: (ctx) => ctx.linkTargets()?.LINKS_TO_REDIRECT ?? null,
  LINKS_REDIRECT_CHAIN: ({ page, responded }) => {
    if (!responded && page.redirects.length === 0) return null;
    return isRedirectChain(page.redirects.length)
      ? fail({ hops: page.redirects.length, chain: redirectChain(page) })
      : pass();
  },
  LINKS_REDIRECT_LOOP: ({ page, responded }) => {
    if (!responded && page.redirects.length === 0 && !page.redirectLoop) return null;
    return page.redirectLoop || hasRedirectLoop(page) ? fail({ chain: redirectChain(page) }) : pass();
  },
  LINKS_DEAD_END: ({ html }) => (html ? (html.links.some((link) => link.kind === 'http') ? pass() : fail()) : null),
  LINKS_TOO_MANY: ({ html }) =>
    html ? (html.linkCount > T.maxLinksPerPage ? fail({ count: html.linkCount }) : pass()) : null,
  LINKS_INTERNAL_NOFOLLOW: ({ html }) => {
    const internal = html?.links.filter((link) => link.kind === 'http' && link.internal);
    if (!internal || internal.length === 0) return null;
    const nofollow = internal.filter((link) => link.nofollow);
    return nofollow.length > 0
      ? fail({ count: nofollow.length, links: nofollow.slice(0, SAMPLE).map((link) => link.url) })
      : pass();
  },
  LINKS_HTTPS_TO_HTTP: ({ html, https }) => {
    const links = https ? html?.links.filter((link) => link.kind === 'http') : undefined;
    if (!links || links.length === 0) return null;
    const insecure = links.filter((link) => link.url!.startsWith('http:'));
    return insecure.length > 0
      ? fail({ count: insecure.length, links: insecure.slice(0, SAMPLE).map((link) => link.url) })
      : pass();
  },
  LINKS_UNCRAWLABLE: ({ html }) => {
    if (!html || html.links.length === 0) return null;
    const bad = html.links.filter((link) => link.kind === 'uncrawlable');
    return bad.length > 0
      ? fail({ count: bad.length, links: bad.slice(0, SAMPLE).map((link) => ({ href: link.href, text: link.text })) })
      : pass();
  },
  LINKS_DEPTH_HIGH: ({ ok, page }) =>
    ok ? (page.depth > T.maxClickDepth ? fail({ depth: page.depth }) : pass()) : null,
  LINKS_LOCALHOST: ({ html, finalUrl }) => {
    if (!html || !finalUrl || isLoopbackHost(finalUrl.hostname)) return null;
    const links = html.links.filter((link) => link.kind === 'http');
    if (links.length === 0) return null;
    const local = links.filter(isLoopbackLink);
    return local.length > 0
      ? fail({ count: local.length, links: local.slice(0, SAMPLE).map((link) => link.url) })
      : pass();
  },
  // Temporary redirects, links without a name, links to non-canonical or noindex pages (hygiene-checks.ts)
  ...HYGIENE_LINK_EVALUATORS,
  ...STRUCTURED_LINK_EVALUATORS,

  // TECHNICAL
  TECH_STATUS_4XX: ({ page, responded }) =>
    responded ? (page.status >= 400 && page.status < 500 ? fail({ status: page.status }) : pass()) : null,
  TECH_STATUS_5XX: ({ page, responded }) =>
    responded ? (page.status >= 500 && page.status < 600 ? fail({ status: page.status }) : pass()) : null,
  TECH_TIMEOUT: ({ page }) => (page.timedOut ? fail() : pass()),
  PAGE_FETCH_FAILED: ({ page }) => (page.fetchError ? fail({ error: page.fetchError }) : pass()),
  // Listed in the sitemap, the page is one the site asks to have indexed: its noindex is not intended (CRITICAL).
  TECH_NOINDEX: ({ html, page }) =>
    html
      ? html.robots.noindex
        ? fail(
            { sources: html.robots.noindexSources, meta: html.robots.meta, header: html.robots.header },
            page.inSitemap ? 'CRITICAL' : undefined,
          )
        : pass()
      : null,
  TECH_BLOCKED_BY_ROBOTS: (ctx) => ctx.linkTargets()?.TECH_BLOCKED_BY_ROBOTS ?? null,
  TECH_SITEMAP_NON_INDEXABLE: ({ facts, page, indexable }) => {
    if (!page.inSitemap) return null;
    const listed = { redirected: wasRedirected(page), status: page.status, finalUrl: page.finalUrl, indexable };
    return sitemapListingOutcome({ ...listed, isHtml: facts !== null, noindex: facts?.robots.noindex ?? false });
  },
  TECH_CANONICAL_MULTIPLE: ({ html }) =>
    html
      ? html.canonicalCount > 1
        ? fail({ count: html.canonicalCount, canonicals: html.canonicals.slice(0, 3).map((c) => c.href) })
        : pass()
      : null,
  TECH_CANONICAL_RELATIVE: ({ html }) => {
    if (!html || html.canonicals.length === 0) return null;
    const relative = html.canonicals.filter((canonical) => !isAbsoluteUrl(canonical.href));
    return relative.length > 0 ? fail({ href: relative[0].href }) : pass();
  },
  TECH_CANONICAL_MISMATCH: ({ html }) => {
    const htmlCanonical = html?.canonicals.find((canonical) => canonical.url !== null)?.url;
    if (!html || !htmlCanonical || html.headerCanonical === null) return null;
    return normalizeUrl(htmlCanonical) === normalizeUrl(html.headerCanonical)
      ? pass()
      : fail({ html: htmlCanonical, header: html.headerCanonical });
  },
  TECH_CANONICAL_TO_BROKEN: (ctx) => ctx.linkTargets()?.TECH_CANONICAL_TO_BROKEN ?? null,
  TECH_CANONICAL_INVALID: ({ html }) => {
    if (!html || (html.canonicals.length === 0 && html.headerCanonical === null)) return null;
    const invalid = html.canonicals.filter((canonical) => !isWebUrl(canonical.url)).map((canonical) => canonical.href);
    if (html.headerCanonical !== null && !isWebUrl(html.headerCanonical)) invalid.push(html.headerCanonical);
    return invalid.length > 0 ? fail({ href: invalid[0], count: invalid.length }) : pass();
  },
  // Every 2xx HTML page applies, so that "every page canonical to another host" (a site-wide blocker) reads as
  // affected pages equal to applicable pages.
  TECH_CANONICAL_OTHER_HOST: ({ html, page }) => {
    if (!html) return null;
    const canonical = effectiveCanonical(html);
    const host = canonical === null ? null : canonicalOtherHost(canonical, page.finalUrl);
    return host === null ? pass() : fail({ canonical, host });
  },
  TECH_URL_UPPERCASE: ({ ok, finalUrl }) => {
    if (!ok || !finalUrl) return null;
    return /[A-Z]/.test(finalUrl.pathname.replace(/%[0-9a-f]{2}/gi, '')) ? fail({ path: finalUrl.pathname }) : pass();
  },
  TECH_URL_UNDERSCORE: ({ ok, finalUrl }) =>
    ok && finalUrl ? (finalUrl.pathname.includes('_') ? fail({ path: finalUrl.pathname }) : pass()) : null,
  TECH_URL_TOO_LONG: ({ ok, finalUrl }) =>
    ok && finalUrl ? (finalUrl.href.length > T.maxUrlChars ? fail({ length: finalUrl.href.length }) : pass()) : null,
  // About pages: an error answer (a broken link's target) or a PDF, image or other file is not one.
  TECH_HTTP_PAGE: ({ responded, finalUrl, page }) =>
    responded && finalUrl && page.status < 400 && !isOtherThanHtml(page)
      ? isPlainHttp(finalUrl.href)
        ? fail({ url: finalUrl.href })
        : pass()
      : null,
  TECH_MIXED_CONTENT: ({ html, https }) =>
    html && https
      ? html.mixedContent.count > 0
        ? fail({ count: html.mixedContent.count, resources: html.mixedContent.sample.slice(0, SAMPLE) })
        : pass()
      : null,
  TECH_RESOURCE_BROKEN: (ctx) => ctx.linkTargets()?.TECH_RESOURCE_BROKEN ?? null,
  TECH_RESOURCE_PRIVATE_ADDRESS: (ctx) => ctx.linkTargets()?.TECH_RESOURCE_PRIVATE_ADDRESS ?? null,
  TECH_HTML_TOO_LARGE: ({ html, page }) => {
    if (!html) return null;
    // Over the crawler's cap, the page was analysed on its first bytes: the evidence says how much of it.
    if (page.bodyCapped)
      return fail({ bytes: page.bodyCapped.declaredBytes ?? html.htmlBytes, analysedBytes: html.htmlBytes });
    return html.htmlBytes > T.maxHtmlBytes ? fail({ bytes: html.htmlBytes }) : pass();
  },
  // Insecure cookies, meta refresh, soft 404s and URL hygiene (hygiene-checks.ts)
  ...HYGIENE_TECH_EVALUATORS,
  TECH_CLIENT_RENDERED_SUSPECTED: clientRenderedSuspected,
  ...STRUCTURED_TECH_EVALUATORS,
  // RENDERING (browser mode: the raw HTML against the rendered page)
  ...RENDERING_EVALUATORS,

  // PERFORMANCE
  PERF_LCP: ({ page }) => metric(page.labMetrics?.lcpMs, T.metrics.PERF_LCP, 'lcpMs'),
  PERF_CLS: ({ page }) => metric(page.labMetrics?.cls, T.metrics.PERF_CLS, 'cls'),
  PERF_INP: ({ page }) => metric(page.labMetrics?.inpMs, T.metrics.PERF_INP, 'inpMs'),
  PERF_TBT: ({ page }) => metric(page.labMetrics?.tbtMs, T.metrics.PERF_TBT, 'tbtMs'),
  PERF_FCP: ({ page }) => metric(page.labMetrics?.fcpMs, T.metrics.PERF_FCP, 'fcpMs'),
  PERF_TTFB: ({ page, responded }) =>
    metric(page.labMetrics?.ttfbMs ?? (responded ? page.responseMs : undefined), T.metrics.PERF_TTFB, 'ttfbMs'),
  PERF_DOM_SIZE: ({ html }) => metric(html?.domElements, T.metrics.PERF_DOM_SIZE, 'elements'),
  PERF_PAGE_WEIGHT: ({ page }) => metric(page.labMetrics?.pageWeightBytes, T.metrics.PERF_PAGE_WEIGHT, 'bytes'),
  PERF_IMAGE_TOO_LARGE: ({ page, html }) => {
    const sized = (page.resources ?? []).filter(
      (resource) => resource.kind === 'image' && resource.bytes !== undefined,
    );
    if (sized.length === 0) return null;
    const large = sized.filter((resource) => resource.bytes! > T.maxImageBytes);
    const declared = (url: string) => {
      const image = html?.images.find((i) => i.url === url);
      return image ? declaredSize(image) : {};
    };
    return large.length > 0
      ? fail({
          count: large.length,
          images: large.slice(0, SAMPLE).map((r) => ({ url: r.url, bytes: r.bytes, ...declared(r.url) })),
        })
      : pass();
  },
  PERF_IMAGE_NO_DIMENSIONS: ({ html }) => {
    if (!html || html.images.length === 0) return null;
    const unsized = html.images.filter((image) => !image.hasWidth || !image.hasHeight);
    return unsized.length > 0
      ? fail({
          count: unsized.length,
          images: unsized.slice(0, SAMPLE).map(imageRef),
          // What each of them declares (one of the two, or neither), in the same order.
          declared: unsized.slice(0, SAMPLE).map((image) => ({ url: imageRef(image), ...declaredSize(image) })),
        })
      : pass();
  },
  PERF_NO_COMPRESSION: ({ page }) => {
    // The page itself and the subresources the crawler fetched, each judged by the shared response verdict.
    const candidates: { url: string; encoding: string | null; compressed: boolean }[] = [];
    const judge = (url: string, headers: PageFetch['headers'], status: number, bodyBytes: number | undefined) => {
      const verdict = compressionVerdict(parseResponseHeaders(headers), { status, bodyBytes });
      if (verdict.applies)
        candidates.push({ url, encoding: firstHeader(headers, 'content-encoding'), compressed: verdict.compressed });
    };
    judge(page.finalUrl, page.headers, page.status, page.bytes);
    for (const resource of page.resources ?? []) {
      // A resource without a status was not fetched by the crawler itself; its headers are what it was given.
      if (resource.headers) judge(resource.url, resource.headers, resource.status ?? 200, resource.bytes);
    }
    if (candidates.length === 0) return null;
    const plain = candidates.filter((candidate) => !candidate.compressed);
    return plain.length > 0 ? fail({ count: plain.length, urls: plain.slice(0, SAMPLE).map((c) => c.url) }) : pass();
  },
  PERF_RENDER_BLOCKING: ({ html }) => {
    if (!html) return null;
    const { scripts, stylesheets, sample } = html.renderBlocking;
    return scripts > 0 || stylesheets > T.maxBlockingStylesheets
      ? fail({ scripts, stylesheets, resources: sample.slice(0, SAMPLE) })
      : pass();
  },
  PERF_NO_CACHE_HEADERS: ({ page }) => {
    const assets = (page.resources ?? []).flatMap((resource) => {
      if (!resource.headers || !isSuccess(resource.status)) return [];
      const headers = parseResponseHeaders(resource.headers);
      return isStaticAssetResponse(headers, resource.kind) ? [{ url: resource.url, headers }] : [];
    });
    if (assets.length === 0) return null;
    const uncached = assets.filter((asset) => !cacheVerdict(asset.headers).cacheable);
    return uncached.length > 0
      ? fail({ count: uncached.length, urls: uncached.slice(0, SAMPLE).map((r) => r.url) })
      : pass();
  },
  // Legacy image formats and lazy loading (hygiene-checks.ts)
  ...HYGIENE_PERF_EVALUATORS,
};

function firstText(values: readonly string[]): string {
  return values.length > 0 ? values[0].trim() : '';
}

function lengthBelow(text: string | null | '', min: number, field: string): CheckOutcome {
  if (!text) return null;
  const length = codePointLength(text);
  return length < min ? fail({ [field]: text, length }) : pass();
}

function lengthAbove(text: string | null | '', max: number, field: string): CheckOutcome {
  if (!text) return null;
  const length = codePointLength(text);
  return length > max ? fail({ [field]: text, length }) : pass();
}

/** Characters as people count them (astral symbols are one, not two UTF-16 units). */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) length--;
  }
  return length;
}

function metric(value: number | undefined, band: { good: number; poor: number }, field: string): CheckOutcome {
  if (value === undefined || !Number.isFinite(value)) return null;
  return banded(value, band, { [field]: value });
}

function viewportZoomBlocker(content: string): string | null {
  for (const [key, value] of viewportDirectives(content)) {
    if (key === 'user-scalable' && (value === 'no' || value === '0')) return `user-scalable=${value}`;
    if (key === 'maximum-scale') {
      const scale = Number.parseFloat(value);
      if (Number.isFinite(scale) && scale < T.minMaximumScale) return `maximum-scale=${value}`;
    }
  }
  return null;
}

/** The response says it is something other than an HTML document (a redirect or a typeless answer is not). */
function isOtherThanHtml(page: PageFetch): boolean {
  if (page.status >= 300 && page.status < 400) return false;
  const type = firstHeader(page.headers, 'content-type');
  return !!type?.trim() && !isHtmlContentType(type);
}

function isLoopbackLink(link: LinkFact): boolean {
  const url = link.url!;
  if (!/localhost|127\.|\[::1\]|0\.0\.0\.0/i.test(url)) return false;
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

function imageRef(image: { url: string | null; src: string }): string {
  return image.url ?? image.src;
}

/** The width and height attributes an image declares, when it does (evidence keys, absent when not written). */
function declaredSize(image: { width?: string; height?: string }): { width?: string; height?: string } {
  const size: { width?: string; height?: string } = {};
  if (image.width !== undefined) size.width = image.width;
  if (image.height !== undefined) size.height = image.height;
  return size;
}

function unique<V>(values: readonly V[]): V[] {
  return [...new Set(values)];
}

function redirectChain(page: PageFetch): string[] {
  return [...page.redirects.map((hop) => `${hop.status} ${hop.url}`), page.finalUrl].slice(0, 12);
}

function hasRedirectLoop(page: PageFetch): boolean {
  const seen = new Set<string | null>();
  for (const hop of page.redirects) {
    const key = normalizeUrl(hop.url) ?? hop.url;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  // The chain ended on a URL it already passed through, still redirecting.
  return (
    page.redirects.length > 0 &&
    page.status >= 300 &&
    page.status < 400 &&
    seen.has(normalizeUrl(page.finalUrl) ?? page.finalUrl)
  );
}

function isSuccess(status: number | undefined): boolean {
  return status === undefined || (status >= 200 && status < 300);
}
