/**
 * The one response-header parser and the verdicts read from it. Every check that looks at an HTTP response's
 * headers decides here, whoever asks: the audit's page and site checks (src/seo/checks) and the free headers tool
 * (header-checks.ts) call the same functions, so that an audit and the tool cannot disagree about one response.
 * Callers phrase messages and evidence; they do not re-read the headers to decide.
 */
import { parseXRobotsTag } from '../page/robots-directives.js';
import { charsetOf } from '../page/header-values.js';
import { CHECK_THRESHOLDS } from '../checks/check-thresholds.js';
import { mediaTypeOf, parseCacheControl, parseCsp, parseHsts } from './header-directives.js';
import type { CacheControl, CspPolicy, HstsPolicy } from './header-directives.js';

/** Header values as an HTTP client returns them: a string, or an array for a repeated header. */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/** One response's header fields, parsed once. */
export interface ResponseHeaders {
  /** Lower-cased name -> every value received, in order (a repeated field keeps each one). */
  readonly fields: ReadonlyMap<string, readonly string[]>;
  /** Every value of a field (name case-insensitive); empty when absent. */
  values(name: string): readonly string[];
  /** The Content-Type's media type, lower-cased, without parameters; null when absent or empty. */
  readonly mediaType: string | null;
}

const NO_VALUES: readonly string[] = [];

/** Parses a header record (any name case, string or array values) into a ResponseHeaders. */
export function parseResponseHeaders(headers: HeaderRecord | undefined): ResponseHeaders {
  const fields = new Map<string, string[]>();
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    let list = fields.get(key);
    if (list === undefined) {
      list = [];
      fields.set(key, list);
    }
    if (typeof value === 'string') list.push(value);
    else list.push(...value);
  }
  const values = (name: string): readonly string[] => fields.get(name.toLowerCase()) ?? NO_VALUES;
  return { fields, values, mediaType: mediaTypeOf(values('content-type')[0] ?? null) };
}

const sharedParses = new WeakMap<HeaderRecord, ResponseHeaders>();

/**
 * parseResponseHeaders of a record many pages share, parsed once: a subresource's response is checked once for the
 * whole crawl, and every page that embeds it hands the checks that same record (3-4 images on each of 5,000 pages
 * were 17,500 parses of a few hundred records).
 */
export function sharedResponseHeaders(headers: HeaderRecord): ResponseHeaders {
  let parsed = sharedParses.get(headers);
  if (parsed === undefined) sharedParses.set(headers, (parsed = parseResponseHeaders(headers)));
  return parsed;
}

// --- scheme and redirects ------------------------------------------------------------------------------------

/** TECH_HTTP_PAGE: the final URL of a response is plain http (no redirect to https on the way). */
export function isPlainHttp(finalUrl: string): boolean {
  try {
    return new URL(finalUrl).protocol === 'http:';
  } catch {
    return false;
  }
}

/** LINKS_REDIRECT_CHAIN: reaching the final URL took this many hops or more. */
export function isRedirectChain(hops: number): boolean {
  return hops >= CHECK_THRESHOLDS.redirectChainHops;
}

// --- Strict-Transport-Security (TECH_HSTS_MISSING) -----------------------------------------------------------

export type HstsVerdict =
  /** HSTS only takes effect on https responses: nothing to decide on http. */
  | { applies: false; reason: 'not-https' }
  | { applies: true; enabled: false; reason: 'absent' }
  /** Browsers ignore an invalid header (RFC 6797 §6.1) and treat max-age=0 as "forget": HSTS is off. */
  | { applies: true; enabled: false; reason: 'invalid'; error: string }
  | { applies: true; enabled: false; reason: 'max-age-zero'; policy: HstsPolicy }
  | { applies: true; enabled: true; policy: HstsPolicy; maxAge: number; repeated: boolean };

/**
 * Whether a response enables HSTS. Browsers honour only the first Strict-Transport-Security header
 * (RFC 6797 §8.1); it must parse, with a max-age above 0.
 */
export function hstsVerdict(headers: ResponseHeaders, https: boolean): HstsVerdict {
  if (!https) return { applies: false, reason: 'not-https' };
  const values = headers.values('strict-transport-security');
  if (values.length === 0) return { applies: true, enabled: false, reason: 'absent' };
  const policy = parseHsts(values[0]);
  if (!policy.valid)
    return { applies: true, enabled: false, reason: 'invalid', error: policy.error ?? 'invalid header' };
  const maxAge = policy.maxAge ?? 0;
  if (maxAge === 0) return { applies: true, enabled: false, reason: 'max-age-zero', policy };
  return { applies: true, enabled: true, policy, maxAge, repeated: values.length > 1 };
}

// --- compression (PERF_NO_COMPRESSION) -----------------------------------------------------------------------

/** Codings that compress; `identity` and unknown ones do not. */
const COMPRESSED_ENCODINGS = new Set(['gzip', 'x-gzip', 'br', 'zstd', 'deflate', 'compress']);
const SCRIPT_TYPES = new Set([
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/javascript',
  'text/ecmascript',
]);
const TEXT_APPLICATION_TYPES = new Set([
  ...SCRIPT_TYPES,
  'application/json',
  'application/xml',
  'application/wasm',
  'font/ttf',
  'font/otf',
  'application/vnd.ms-fontobject',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);
const STATIC_ASSET_TYPES = new Set([
  ...SCRIPT_TYPES,
  'text/css',
  'application/wasm',
  'application/vnd.ms-fontobject',
  'application/font-woff',
  'application/x-font-ttf',
]);

/** Types that compress well: text, JSON/XML families, SVG, uncompressed fonts and icons, wasm. */
export function isCompressibleType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    mediaType.endsWith('+xml') ||
    mediaType.endsWith('+json') ||
    TEXT_APPLICATION_TYPES.has(mediaType)
  );
}

/** Static assets in the sense of PERF_NO_CACHE_HEADERS: scripts, styles, images, fonts, media. */
export function isStaticAssetType(mediaType: string): boolean {
  return (
    STATIC_ASSET_TYPES.has(mediaType) ||
    mediaType.startsWith('image/') ||
    mediaType.startsWith('font/') ||
    mediaType.startsWith('audio/') ||
    mediaType.startsWith('video/')
  );
}

/** The content codings of a response, lower-cased, `identity` left out, every Content-Encoding value read. */
export function contentEncodings(headers: ResponseHeaders): string[] {
  return headers
    .values('content-encoding')
    .flatMap((entry) => entry.split(','))
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '' && entry !== 'identity');
}

export type CompressionVerdict =
  /** Why compression is not asked of this response. */
  | {
      applies: false;
      reason: 'no-body' | 'not-success' | 'no-content-type' | 'not-compressible' | 'too-small';
      encodings: string[];
      bytes: number | null;
    }
  | { applies: true; compressed: boolean; encodings: string[]; mediaType: string; bytes: number | null };

/**
 * PERF_NO_COMPRESSION for one response: it applies to a 2xx response with a body of a compressible type and at
 * least `compressionMinBytes` (the body size the caller measured, else Content-Length; unknown counts as large),
 * and passes when a compressing coding was applied.
 */
export function compressionVerdict(
  headers: ResponseHeaders,
  response: { status: number; bodyBytes?: number | null },
): CompressionVerdict {
  const encodings = contentEncodings(headers);
  const declared = Number(headers.values('content-length')[0] ?? Number.NaN);
  const measured = response.bodyBytes ?? (Number.isFinite(declared) ? declared : null);
  const bytes = measured !== null && Number.isFinite(measured) ? measured : null;
  const { status } = response;
  const skip = (reason: Extract<CompressionVerdict, { applies: false }>['reason']): CompressionVerdict => ({
    applies: false,
    reason,
    encodings,
    bytes,
  });
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return skip('no-body');
  if (status < 200 || status >= 300) return skip('not-success');
  if (headers.mediaType === null) return skip('no-content-type');
  if (!isCompressibleType(headers.mediaType)) return skip('not-compressible');
  if (bytes !== null && bytes < CHECK_THRESHOLDS.compressionMinBytes) return skip('too-small');
  const compressed = encodings.some((encoding) => COMPRESSED_ENCODINGS.has(encoding));
  return { applies: true, compressed, encodings, mediaType: headers.mediaType, bytes };
}

// --- caching (PERF_NO_CACHE_HEADERS) -------------------------------------------------------------------------

export interface CacheVerdict {
  directives: CacheControl;
  /** A positive max-age or s-maxage: the response may be reused without asking. */
  hasMaxAge: boolean;
  /** ETag or Last-Modified: the response may be revalidated cheaply. */
  hasValidator: boolean;
  /** Either of the two: what PERF_NO_CACHE_HEADERS asks of a static asset (docs/scores.md). */
  cacheable: boolean;
}

/** How a response may be cached, from Cache-Control, ETag and Last-Modified. `immutable` alone sets no lifetime. */
export function cacheVerdict(headers: ResponseHeaders): CacheVerdict {
  const directives = parseCacheControl(headers.values('cache-control'));
  const hasMaxAge = (directives.maxAge ?? 0) > 0 || (directives.sMaxAge ?? 0) > 0;
  const hasValidator = headers.values('etag').length > 0 || headers.values('last-modified').length > 0;
  return { directives, hasMaxAge, hasValidator, cacheable: hasMaxAge || hasValidator };
}

/**
 * Whether PERF_NO_CACHE_HEADERS looks at a response: a static asset. The audit knows how the page loads it
 * (`kind`: image, script...); the tool, which sees one URL on its own, goes by the media type.
 */
export function isStaticAssetResponse(headers: ResponseHeaders, kind?: string): boolean {
  if (kind !== undefined) return kind !== 'other';
  return headers.mediaType !== null && isStaticAssetType(headers.mediaType);
}

// --- X-Robots-Tag (TECH_NOINDEX, header source) ---------------------------------------------------------------

/** What the X-Robots-Tag values of a response say to the crawler's engine (generic and googlebot lines). */
export function xRobotsTagVerdict(headers: ResponseHeaders): { noindex: boolean; nofollow: boolean } {
  let noindex = false;
  let nofollow = false;
  for (const entry of headers.values('x-robots-tag')) {
    const flags = parseXRobotsTag(entry);
    noindex ||= flags.noindex;
    nofollow ||= flags.nofollow;
  }
  return { noindex, nofollow };
}

// --- charset (META_CHARSET_MISSING) --------------------------------------------------------------------------

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export function isHtmlType(mediaType: string | null): boolean {
  return mediaType !== null && HTML_TYPES.has(mediaType);
}

/**
 * META_CHARSET_MISSING: an HTML document declares its encoding in the Content-Type charset parameter or in the
 * document (`<meta charset>`, http-equiv), which the caller read from the body. Null when not HTML.
 */
export function charsetDeclared(headers: ResponseHeaders, documentCharset: string | null): boolean | null {
  if (!isHtmlType(headers.mediaType)) return null;
  return charsetOf(headers.values('content-type')[0] ?? null) !== null || (documentCharset?.trim() ?? '') !== '';
}

// --- security headers (TECH_CSP_MISSING, TECH_CONTENT_TYPE_OPTIONS_MISSING, TECH_CLICKJACKING_UNPROTECTED) ------

/**
 * TECH_CSP_MISSING: whether the response enforces a Content-Security-Policy. Report-Only blocks nothing, so it does
 * not count; a policy that restricts no script source is still a policy (the tool phrases that weakness).
 */
export function cspVerdict(headers: ResponseHeaders): { present: boolean; policies: CspPolicy[]; reportOnly: boolean } {
  const policies = parseCsp(headers.values('content-security-policy'));
  return {
    present: policies.length > 0,
    policies,
    reportOnly: headers.values('content-security-policy-report-only').length > 0,
  };
}

/** TECH_CONTENT_TYPE_OPTIONS_MISSING: the first X-Content-Type-Options token is `nosniff` (what browsers read). */
export function contentTypeOptionsVerdict(headers: ResponseHeaders): { nosniff: boolean; value: string | null } {
  const values = headers.values('x-content-type-options');
  if (values.length === 0) return { nosniff: false, value: null };
  return { nosniff: values[0].split(',')[0].trim().toLowerCase() === 'nosniff', value: values[0] };
}

export type FrameProtectionVerdict =
  | { protected: true; by: 'frame-ancestors'; value: string }
  | { protected: true; by: 'x-frame-options'; value: 'DENY' | 'SAMEORIGIN' }
  | {
      protected: false;
      reason: 'absent' | 'frame-ancestors-wildcard' | 'x-frame-options-conflict' | 'x-frame-options-invalid';
      value: string | null;
    };

/**
 * TECH_CLICKJACKING_UNPROTECTED: CSP frame-ancestors (which supersedes X-Frame-Options where supported) without `*`
 * in some policy, else X-Frame-Options DENY or SAMEORIGIN — its comma-separated values count only if they agree
 * (HTML spec); ALLOW-FROM is obsolete and ignored.
 */
export function frameProtectionVerdict(headers: ResponseHeaders): FrameProtectionVerdict {
  const frameAncestors = parseCsp(headers.values('content-security-policy'))
    .map((policy) => policy.get('frame-ancestors'))
    .filter((sources): sources is readonly string[] => sources !== undefined);
  if (frameAncestors.length > 0) {
    const value = frameAncestors.map((sources) => `frame-ancestors ${sources.join(' ')}`.trim()).join(', ');
    // Every policy is enforced: one that does not allow * restricts framing.
    return frameAncestors.every((sources) => sources.includes('*'))
      ? { protected: false, reason: 'frame-ancestors-wildcard', value }
      : { protected: true, by: 'frame-ancestors', value };
  }
  const xfoValues = headers.values('x-frame-options');
  const value = xfoValues.length === 0 ? null : xfoValues.join(', ');
  const tokens = new Set(
    xfoValues
      .flatMap((entry) => entry.split(','))
      .map((token) => token.trim().toUpperCase())
      .filter((token) => token !== ''),
  );
  const xfo = tokens.size === 1 ? [...tokens][0] : null;
  if (xfo === 'DENY' || xfo === 'SAMEORIGIN') return { protected: true, by: 'x-frame-options', value: xfo };
  if (xfoValues.length === 0) return { protected: false, reason: 'absent', value };
  return { protected: false, reason: tokens.size > 1 ? 'x-frame-options-conflict' : 'x-frame-options-invalid', value };
}

/** TECH_HSTS_SHORT: HSTS is on (hstsVerdict) but for less than a year; null when HSTS is off or does not apply. */
export function hstsShortVerdict(verdict: HstsVerdict): { short: boolean; maxAge: number } | null {
  if (!verdict.applies || !verdict.enabled) return null;
  return { short: verdict.maxAge < CHECK_THRESHOLDS.hstsMinMaxAge, maxAge: verdict.maxAge };
}

// --- cookies (TECH_COOKIE_INSECURE) ---------------------------------------------------------------------------

/**
 * TECH_COOKIE_INSECURE: on an https response, the cookies set without the Secure attribute (RFC 6265 §4.1.2.5), so
 * a browser would also send them over plain http. A cookie being deleted (Max-Age<=0 or an Expires in the past) is
 * not counted. Null when the response is not https or sets no cookie.
 */
export function insecureCookies(headers: ResponseHeaders, https: boolean): { names: string[]; total: number } | null {
  if (!https) return null;
  const cookies = headers.values('set-cookie');
  if (cookies.length === 0) return null;
  const names: string[] = [];
  let total = 0;
  for (const cookie of cookies) {
    const [pair, ...attributes] = cookie.split(';');
    const eq = pair.indexOf('=');
    const name = (eq === -1 ? '' : pair.slice(0, eq)).trim();
    let secure = false;
    let deleted = false;
    for (const attribute of attributes) {
      const [key, ...rest] = attribute.split('=');
      const keyName = key.trim().toLowerCase();
      const argument = rest.join('=').trim();
      if (keyName === 'secure') secure = true;
      else if (keyName === 'max-age' && /^-?\d+$/.test(argument) && Number(argument) <= 0) deleted = true;
      else if (keyName === 'expires' && Date.parse(argument) < Date.now() - 86_400_000) deleted = true;
    }
    total++;
    if (!secure && !deleted) names.push(name || '(unnamed)');
  }
  return { names, total };
}
