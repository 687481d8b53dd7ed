/**
 * Evaluators of the image, security-header, redirect, soft-404, URL and link-text checks (issue 28, item 5). One
 * evaluator per code, spread into PAGE_EVALUATORS (page-checks.ts, each category's record where its codes stand in
 * the catalog) and SITE_EVALUATORS (site-checks.ts). Header verdicts come from ../headers/response-verdicts.ts, which
 * the free headers tool reads too.
 */
import {
  contentTypeOptionsVerdict,
  cspVerdict,
  frameProtectionVerdict,
  hstsShortVerdict,
  hstsVerdict,
  insecureCookies,
  parseResponseHeaders,
} from '../headers/response-verdicts.js';
import { firstHeader, type ImageFact, type PageFacts } from '../page/index.js';
import type { SiteCheckCode } from './check-catalog.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type { SiteCheckResult } from './check.types.js';
import { fail, pass } from './check-outcome.js';
import type { PageEvaluator } from './page-checks.js';
import type { SiteEvaluator } from './site-checks.js';

const SAMPLE = 5;

type HygieneContentCode = 'CONTENT_IMAGE_ALT_FILENAME' | 'CONTENT_IMAGE_EMPTY_SRC' | 'CONTENT_PLACEHOLDER_TEXT';
type HygieneLinkCode =
  'LINKS_TEMPORARY_REDIRECT' | 'LINKS_NO_ANCHOR_TEXT' | 'LINKS_TO_NON_CANONICAL' | 'LINKS_TO_NOINDEX';
type HygieneTechCode =
  | 'TECH_COOKIE_INSECURE'
  | 'TECH_META_REFRESH'
  | 'TECH_SOFT_404'
  | 'TECH_URL_DOUBLE_SLASH'
  | 'TECH_URL_NON_ASCII'
  | 'TECH_URL_SESSION_ID';
type HygienePerfCode = 'PERF_IMAGE_LEGACY_FORMAT' | 'PERF_LCP_IMAGE_LAZY' | 'PERF_IMAGES_NOT_LAZY';

type HygieneSiteCode = Extract<
  SiteCheckCode,
  'TECH_CSP_MISSING' | 'TECH_CONTENT_TYPE_OPTIONS_MISSING' | 'TECH_CLICKJACKING_UNPROTECTED' | 'TECH_HSTS_SHORT'
>;

/** File names as alt text: one token with an image extension, or a camera's or screenshot tool's default name. */
/** A file name or a path to one (`IMG_1234.jpg`, `../_images/postmortem.png`, a URL): no space, an image extension. */
const FILE_NAME_ALT = /^\S+\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$/i;
const CAMERA_NAME_ALT = /^(?:img|dsc|dscn|dscf|dcim|pict|pxl|mvimg|photo|image)[-_ ]?\d{3,}(?:[-_]\w+)*$/i;
const SCREENSHOT_ALT = /^screen ?shot[-_ ]\d{4}[-_]\d{2}/i;

/** Image types Lighthouse's "serve images in modern formats" audit flags (WebP/AVIF encode them smaller). */
const LEGACY_IMAGE_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/gif', 'image/bmp']);

/**
 * A title or h1 that announces a missing page, in the languages most sites use (Google's soft-404 report looks for
 * the same: an error message served with 200).
 */
const NOT_FOUND_HEADING = new RegExp(
  [
    String.raw`\b404\b`,
    String.raw`\bnot\s+found\b`,
    String.raw`\b(?:can['’]?t|cannot|could\s*n['’]?o?t|could\s+not)\s+be\s+found\b`,
    String.raw`\bpage\s+(?:does\s+not|doesn['’]t)\s+exist\b`,
    String.raw`\bno\s+longer\s+(?:exists|available)\b`,
    String.raw`\bintrouvable\b`,
    String.raw`\bn['’]existe\s+(?:pas|plus)\b`,
    String.raw`\bnon\s+trouv[ée]e?\b`,
    String.raw`\bnicht\s+gefunden\b`,
    String.raw`\bexistiert\s+nicht\b`,
    String.raw`\bno\s+encontrad[ao]\b`,
    String.raw`\bnon\s+trovat[ao]\b`,
    String.raw`\bnão\s+encontrad[ao]\b`,
    String.raw`\bniet\s+gevonden\b`,
    String.raw`\bnie\s+znaleziono\b`,
    'не\\s+найден',
    '見つかりません',
    '找不到|未找到',
  ].join('|'),
  'i',
);

/** Query parameters that carry a session id (PHP, Java EE, ASP, ColdFusion, osCommerce, Zen Cart). */
const SESSION_PARAMETERS = new Set([
  'phpsessid',
  'jsessionid',
  'sessionid',
  'session_id',
  'sessid',
  'cfid',
  'cftoken',
  'oscsid',
  'zenid',
]);
/** `sid` is also a "site id" or "section id": only a long token counts as a session id. */
const SHORT_SESSION_PARAMETER_MIN_CHARS = 16;

/*
 * The page evaluators in four records, one per catalog category: page-checks.ts spreads each where its codes stand
 * in the catalog, so PAGE_EVALUATORS (and the results of runPageChecks) keep catalog order.
 */
export const HYGIENE_CONTENT_EVALUATORS: Readonly<Record<HygieneContentCode, PageEvaluator>> = {
  CONTENT_IMAGE_ALT_FILENAME: ({ html }) => {
    const withAlt = html?.images.filter((image) => image.alt !== null && image.alt !== '');
    if (!withAlt || withAlt.length === 0) return null;
    const named = withAlt.filter((image) => isFileNameAlt(image.alt!));
    return named.length > 0
      ? fail({
          count: named.length,
          images: named.slice(0, SAMPLE).map((image) => ({ src: image.url ?? image.src, alt: image.alt })),
        })
      : pass();
  },
  CONTENT_IMAGE_EMPTY_SRC: ({ html }) => {
    if (!html || html.images.length === 0) return null;
    const empty = html.images.filter((image) => image.noSource);
    return empty.length > 0
      ? fail({ count: empty.length, images: empty.slice(0, SAMPLE).map((image) => ({ alt: image.alt })) })
      : pass();
  },
  CONTENT_PLACEHOLDER_TEXT: ({ html }) =>
    html ? (html.placeholderText !== null ? fail({ text: html.placeholderText }) : pass()) : null,
};

export const HYGIENE_LINK_EVALUATORS: Readonly<Record<HygieneLinkCode, PageEvaluator>> = {
  // On the redirecting URL itself: any hop on the way that is temporary (302 Found, 307 Temporary Redirect).
  LINKS_TEMPORARY_REDIRECT: ({ page, responded }) => {
    if (!responded && page.redirects.length === 0) return null;
    const temporary = page.redirects.find((hop) => hop.status === 302 || hop.status === 307);
    if (!temporary) return pass();
    const index = page.redirects.indexOf(temporary);
    const target = page.redirects[index + 1]?.url ?? page.finalUrl;
    return fail({ status: temporary.status, from: temporary.url, to: target });
  },
  LINKS_NO_ANCHOR_TEXT: ({ html }) => {
    const links = html?.links.filter((link) => link.kind === 'http');
    if (!links || links.length === 0) return null;
    const unnamed = (link: (typeof links)[number]) => link.text.trim() === '' && (link.label ?? '').trim() === '';
    // A target also reached by a named link is described (a card's image link beside its title link, or DocBook's
    // nested <a><em><a>term</a></em></a>, whose outer anchor the HTML parser leaves empty).
    const named = new Set(links.filter((link) => !unnamed(link)).map((link) => link.url));
    const empty = links.filter((link) => unnamed(link) && !named.has(link.url));
    return empty.length > 0
      ? fail({ count: empty.length, links: empty.slice(0, SAMPLE).map((link) => link.url ?? link.href) })
      : pass();
  },
  LINKS_TO_NON_CANONICAL: (ctx) => ctx.linkTargets()?.LINKS_TO_NON_CANONICAL ?? null,
  LINKS_TO_NOINDEX: (ctx) => ctx.linkTargets()?.LINKS_TO_NOINDEX ?? null,
};

export const HYGIENE_TECH_EVALUATORS: Readonly<Record<HygieneTechCode, PageEvaluator>> = {
  TECH_COOKIE_INSECURE: ({ page, responded, https }) => {
    if (!responded) return null;
    const cookies = insecureCookies(parseResponseHeaders(page.headers), https);
    if (cookies === null) return null;
    return cookies.names.length > 0
      ? fail({ count: cookies.names.length, cookies: cookies.names.slice(0, 10) })
      : pass();
  },
  TECH_META_REFRESH: ({ html }) => {
    if (!html) return null;
    const refresh = html.metaRefresh === null ? null : parseRefresh(html.metaRefresh, html.baseUrl);
    return refresh ? fail({ content: html.metaRefresh, ...refresh }) : pass();
  },
  TECH_SOFT_404: ({ html, page, indexable }) => {
    if (!html || !indexable || page.status !== 200) return null;
    if (html.wordCount >= T.soft404MaxWords) return pass();
    const title = html.titles[0]?.trim() ?? '';
    const h1 = html.headings.find((heading) => heading.level === 1)?.text ?? '';
    const says = [title, h1].find((text) => text !== '' && saysNotFound(text));
    return says !== undefined ? fail({ heading: says, words: html.wordCount }) : pass();
  },
  TECH_URL_DOUBLE_SLASH: ({ ok, finalUrl }) =>
    ok && finalUrl ? (finalUrl.pathname.includes('//') ? fail({ path: finalUrl.pathname }) : pass()) : null,
  // The parsed URL is percent-encoded: an encoded space or any byte over 0x7F (UTF-8 of a non-ASCII character).
  TECH_URL_NON_ASCII: ({ ok, finalUrl }) => {
    if (!ok || !finalUrl) return null;
    return /%(?:20|[89a-f][0-9a-f])/i.test(finalUrl.pathname)
      ? fail({ path: finalUrl.pathname, decoded: safeDecode(finalUrl.pathname) })
      : pass();
  },
  TECH_URL_SESSION_ID: ({ ok, finalUrl }) => {
    if (!ok || !finalUrl) return null;
    const parameter = sessionParameter(finalUrl);
    return parameter ? fail({ parameter }) : pass();
  },
};

export const HYGIENE_PERF_EVALUATORS: Readonly<Record<HygienePerfCode, PageEvaluator>> = {
  PERF_IMAGE_LEGACY_FORMAT: ({ page }) => {
    const typed = (page.resources ?? []).flatMap((resource) => {
      if (resource.kind !== 'image' || resource.bytes === undefined || !resource.headers) return [];
      if (resource.status !== undefined && (resource.status < 200 || resource.status >= 300)) return [];
      const type = firstHeader(resource.headers, 'content-type')?.split(';')[0].trim().toLowerCase();
      return type ? [{ url: resource.url, bytes: resource.bytes, type }] : [];
    });
    if (typed.length === 0) return null;
    const legacy = typed.filter((image) => image.bytes > T.legacyImageMinBytes && LEGACY_IMAGE_TYPES.has(image.type));
    return legacy.length > 0 ? fail({ count: legacy.length, images: legacy.slice(0, SAMPLE) }) : pass();
  },
  PERF_LCP_IMAGE_LAZY: ({ html }) => {
    const candidate = html ? likelyLcpImage(html) : undefined;
    if (!candidate) return null;
    return candidate.loading === 'lazy'
      ? fail({ src: candidate.url ?? candidate.src, width: candidate.width, loading: candidate.loading })
      : pass();
  },
  PERF_IMAGES_NOT_LAZY: ({ html }) => {
    if (!html || html.imageCount <= T.lazyImagesMinCount) return null;
    const later = html.images.slice(T.eagerImages);
    if (later.length === 0) return null;
    return later.some((image) => image.loading === 'lazy' || image.scriptLazy)
      ? pass()
      : fail({ images: html.imageCount, eager: later.length });
  },
};

export const HYGIENE_SITE_EVALUATORS: Readonly<Record<HygieneSiteCode, SiteEvaluator>> = {
  TECH_CSP_MISSING: ({ input }) =>
    startHeaderCheck('TECH_CSP_MISSING', input.startResponse, (headers) => {
      const verdict = cspVerdict(headers);
      return verdict.present ? null : { reportOnly: verdict.reportOnly };
    }),
  TECH_CONTENT_TYPE_OPTIONS_MISSING: ({ input }) =>
    startHeaderCheck('TECH_CONTENT_TYPE_OPTIONS_MISSING', input.startResponse, (headers) => {
      const verdict = contentTypeOptionsVerdict(headers);
      return verdict.nosniff ? null : { header: verdict.value };
    }),
  TECH_CLICKJACKING_UNPROTECTED: ({ input }) =>
    startHeaderCheck('TECH_CLICKJACKING_UNPROTECTED', input.startResponse, (headers) => {
      const verdict = frameProtectionVerdict(headers);
      return verdict.protected ? null : { reason: verdict.reason, header: verdict.value };
    }),
  TECH_HSTS_SHORT: ({ input }) => {
    if (!input.hsts) return notApplicable('TECH_HSTS_SHORT');
    const header = input.hsts.header;
    const headers = parseResponseHeaders(header === null ? {} : { 'strict-transport-security': header });
    const verdict = hstsShortVerdict(hstsVerdict(headers, input.hsts.https));
    if (verdict === null) return notApplicable('TECH_HSTS_SHORT');
    return siteResult('TECH_HSTS_SHORT', verdict.short, [
      { url: input.startUrl, evidence: { header, maxAge: verdict.maxAge } },
    ]);
  },
};

/** The security headers of the start page's final response; on plain http anyone on the path can rewrite them. */
function startHeaderCheck(
  code: HygieneSiteCode,
  start: { url: string; https: boolean; headers: PageFactsHeaders } | undefined,
  problem: (headers: ReturnType<typeof parseResponseHeaders>) => Record<string, unknown> | null,
): SiteCheckResult {
  if (!start || !start.https) return notApplicable(code);
  const evidence = problem(parseResponseHeaders(start.headers));
  return siteResult(code, evidence !== null, [{ url: start.url, evidence: evidence ?? {} }]);
}

type PageFactsHeaders = Parameters<typeof parseResponseHeaders>[0];

function siteResult(
  code: HygieneSiteCode,
  failed: boolean,
  occurrences: SiteCheckResult['occurrences'],
): SiteCheckResult {
  return { code, applicable: true, failed, occurrences: failed ? occurrences : [], applicablePages: 1 };
}

function notApplicable(code: HygieneSiteCode): SiteCheckResult {
  return { code, applicable: false, failed: false, occurrences: [], applicablePages: 0 };
}

export function isFileNameAlt(alt: string): boolean {
  const text = alt.trim();
  return FILE_NAME_ALT.test(text) || CAMERA_NAME_ALT.test(text) || SCREENSHOT_ALT.test(text);
}

/** A short heading (a page title, not an article about errors) announcing a missing page. */
export function saysNotFound(text: string): boolean {
  const words = text.split(/\s+/).filter((word) => word !== '').length;
  return words <= T.soft404MaxHeadingWords && NOT_FOUND_HEADING.test(text);
}

/**
 * `<meta http-equiv="refresh" content="5; url=/next">` (HTML's "shared declarative refresh steps"): a delay, then an
 * optional URL. Null when the content does not start with a number (browsers ignore it then).
 */
export function parseRefresh(content: string, baseUrl: string): { delay: number; target: string | null } | null {
  const match = /^\s*(\d+)(?:\.\d*)?\s*(?:[;,]\s*(?:url\s*=\s*)?(.*))?$/is.exec(content);
  if (!match) return null;
  const delay = Number(match[1]);
  const raw = match[2]?.trim().replace(/^(['"])(.*)\1$/s, '$2');
  if (!raw) return { delay, target: null };
  try {
    return { delay, target: new URL(raw, baseUrl).href };
  } catch {
    return { delay, target: raw };
  }
}

/**
 * The likely Largest Contentful Paint element among images, without rendering: the first <img> that declares a
 * width of at least `lcpImageMinWidth` px and starts within the first `lcpImageMaxTextBefore` characters of body
 * text (above the fold on a typical screen). Small icons and logos, and images far down the page, are not it.
 */
export function likelyLcpImage(facts: PageFacts): ImageFact | undefined {
  for (const image of facts.images) {
    if ((image.textBefore ?? 0) > T.lcpImageMaxTextBefore) return undefined;
    const width = image.width !== undefined && /^\d+(?:px)?$/i.test(image.width) ? Number.parseInt(image.width) : 0;
    if (width >= T.lcpImageMinWidth && !image.noSource) return image;
  }
  return undefined;
}

function sessionParameter(url: URL): string | null {
  const matrix = /;(jsessionid|phpsessid|sid)=/i.exec(url.pathname);
  if (matrix) return matrix[1];
  for (const [name, value] of url.searchParams) {
    const key = name.toLowerCase();
    if (value === '') continue;
    if (SESSION_PARAMETERS.has(key) || key.startsWith('aspsessionid')) return name;
    if (key === 'sid' && value.length >= SHORT_SESSION_PARAMETER_MIN_CHARS) return name;
  }
  return null;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
