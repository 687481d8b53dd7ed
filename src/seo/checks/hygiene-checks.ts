/**
 * What the evaluators of the image, security-header, redirect, soft-404, URL and link-text checks share (issue 28,
 * item 5); each evaluator is its check's definition's `evaluate`. Header verdicts come from
 * ../headers/response-verdicts.ts, which the free headers tool reads too.
 */
import { parseResponseHeaders } from '../headers/response-verdicts.js';
import { type ImageFact, type PageFacts } from '../page/index.js';
import { CHECK_THRESHOLDS as T } from './check-thresholds.js';
import type { SiteVerdict } from './site-check-helpers.js';

export const SAMPLE = 5;

/** File names as alt text: one token with an image extension, or a camera's or screenshot tool's default name. */
/** A file name or a path to one (`IMG_1234.jpg`, `../_images/postmortem.png`, a URL): no space, an image extension. */
const FILE_NAME_ALT = /^\S+\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$/i;
const CAMERA_NAME_ALT = /^(?:img|dsc|dscn|dscf|dcim|pict|pxl|mvimg|photo|image)[-_ ]?\d{3,}(?:[-_]\w+)*$/i;
const SCREENSHOT_ALT = /^screen ?shot[-_ ]\d{4}[-_]\d{2}/i;

/** Image types Lighthouse's "serve images in modern formats" audit flags (WebP/AVIF encode them smaller). */
export const LEGACY_IMAGE_TYPES = new Set([
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/png',
  'image/gif',
  'image/bmp',
]);

/**
 * A title or h1 that announces a missing page, in the languages most sites use (Google's soft-404 report looks for
 * the same: an error message served with 200). A raw template's non-ASCII characters are written as the pattern's
 * \u escapes: the bundler cannot escape a raw template, and keeps its bundles ASCII (see build/bundle-workers.ts).
 */
const NOT_FOUND_HEADING = new RegExp(
  [
    String.raw`\b404\b`,
    String.raw`\bnot\s+found\b`,
    String.raw`\b(?:can['\u2019]?t|cannot|could\s*n['\u2019]?o?t|could\s+not)\s+be\s+found\b`,
    String.raw`\bpage\s+(?:does\s+not|doesn['\u2019]t)\s+exist\b`,
    String.raw`\bno\s+longer\s+(?:exists|available)\b`,
    String.raw`\bintrouvable\b`,
    String.raw`\bn['\u2019]existe\s+(?:pas|plus)\b`,
    String.raw`\bnon\s+trouv[\u00e9e]e?\b`,
    String.raw`\bnicht\s+gefunden\b`,
    String.raw`\bexistiert\s+nicht\b`,
    String.raw`\bno\s+encontrad[ao]\b`,
    String.raw`\bnon\s+trovat[ao]\b`,
    String.raw`\bn\u00e3o\s+encontrad[ao]\b`,
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

/** The security headers of the start page's final response; on plain http anyone on the path can rewrite them. */
export function startHeaderCheck(
  code: string,
  start: { url: string; https: boolean; headers: PageFactsHeaders } | undefined,
  problem: (headers: ReturnType<typeof parseResponseHeaders>) => Record<string, unknown> | null,
): SiteVerdict {
  if (!start || !start.https) return notApplicable(code);
  const evidence = problem(parseResponseHeaders(start.headers));
  return siteResult(code, evidence !== null, [{ url: start.url, evidence: evidence ?? {} }]);
}

type PageFactsHeaders = Parameters<typeof parseResponseHeaders>[0];

export function siteResult(code: string, failed: boolean, occurrences: SiteVerdict['occurrences']): SiteVerdict {
  return { code, applicable: true, failed, occurrences: failed ? occurrences : [], applicablePages: 1 };
}

export function notApplicable(code: string): SiteVerdict {
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

export function sessionParameter(url: URL): string | null {
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

export function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
