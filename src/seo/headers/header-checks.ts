import {
  LINKS_REDIRECT_CHAIN,
  META_CHARSET_MISSING,
  PERF_NO_CACHE_HEADERS,
  PERF_NO_COMPRESSION,
  TECH_CLICKJACKING_UNPROTECTED,
  TECH_CONTENT_TYPE_OPTIONS_MISSING,
  TECH_CSP_MISSING,
  TECH_HSTS_MISSING,
  TECH_HSTS_SHORT,
  TECH_HTTP_PAGE,
  TECH_NOINDEX,
  type CheckCode,
} from '../checks/index.js';
import { charsetOf } from '../page/header-values.js';
import { CHECK_THRESHOLDS } from '../checks/check-thresholds.js';
import { effectiveReferrerPolicy, scriptSourceDirective } from './header-directives.js';
import type { CspPolicy } from './header-directives.js';
import type { HeaderCheck, HeaderCheckName, HeadersInput } from './headers.types.js';
import {
  cacheVerdict,
  charsetDeclared,
  compressionVerdict,
  contentTypeOptionsVerdict,
  cspVerdict,
  frameProtectionVerdict,
  hstsShortVerdict,
  hstsVerdict,
  isPlainHttp,
  isRedirectChain,
  isStaticAssetResponse,
  xRobotsTagVerdict,
} from './response-verdicts.js';
import type { ResponseHeaders } from './response-verdicts.js';

/**
 * What every check reads: the input and its parsed headers. The checks that raise catalog codes take their
 * verdict from response-verdicts.ts, as the audit's checks do; here they only phrase it.
 */
export interface HeaderContext {
  input: HeadersInput;
  headers: ResponseHeaders;
  values(name: string): readonly string[];
  isHttps: boolean;
  mediaType: string | null;
}

export interface CheckOutcome {
  check: HeaderCheck;
  /** Catalog codes (docs/scores.md) this outcome raises. */
  issues: CheckCode[];
}

export const RECOMMENDED_HSTS_MAX_AGE = 31_536_000;
/** Below this, compressing saves too little to matter (Lighthouse ignores savings under 1.4 KB). */
export const COMPRESSION_MIN_BYTES = CHECK_THRESHOLDS.compressionMinBytes;
const VERSION_PATTERN = /\/\s*v?\d|\bv?\d+\.\d+/i;

function joined(values: readonly string[]): string | null {
  return values.length === 0 ? null : values.join(', ');
}

function outcome(
  name: HeaderCheckName,
  passed: boolean,
  value: string | null,
  message: string,
  issues: CheckCode[] = [],
): CheckOutcome {
  return { check: { name, passed, value, message }, issues };
}

function describeSeconds(seconds: number): string {
  if (seconds >= RECOMMENDED_HSTS_MAX_AGE) {
    const years = Math.round((seconds / RECOMMENDED_HSTS_MAX_AGE) * 10) / 10;
    return `${years} year${years === 1 ? '' : 's'}`;
  }
  const days = Math.round((seconds / 86_400) * 10) / 10;
  return `${days} day${days === 1 ? '' : 's'}`;
}

function checkHttps(ctx: HeaderContext): CheckOutcome {
  if (!isPlainHttp(ctx.input.finalUrl)) {
    return outcome('https', true, ctx.input.finalUrl, 'The page is served over HTTPS.');
  }
  return outcome(
    'https',
    false,
    ctx.input.finalUrl,
    'The page is served over plain HTTP and does not redirect to HTTPS.',
    [TECH_HTTP_PAGE],
  );
}

function checkRedirectChain(ctx: HeaderContext): CheckOutcome {
  const hops = ctx.input.redirects;
  const value = hops.length === 0 ? null : hops.map((hop) => `${hop.status} ${hop.url}`).join(' -> ');
  if (isRedirectChain(hops.length)) {
    return outcome(
      'redirect-chain',
      false,
      value,
      `${hops.length} redirects before the final URL; link to the final URL directly or redirect in one hop.`,
      [LINKS_REDIRECT_CHAIN],
    );
  }
  if (hops.length === 0) return outcome('redirect-chain', true, value, 'No redirects.');
  return outcome('redirect-chain', true, value, 'One redirect before the final URL.');
}

function checkHsts(ctx: HeaderContext): CheckOutcome {
  const value = joined(ctx.values('strict-transport-security'));
  const verdict = hstsVerdict(ctx.headers, ctx.isHttps);
  const name = 'strict-transport-security';
  if (!verdict.applies) {
    return outcome(name, false, value, 'HSTS only takes effect on HTTPS responses, and this page is served over HTTP.');
  }
  if (!verdict.enabled) {
    const message =
      verdict.reason === 'absent'
        ? 'Missing Strict-Transport-Security: browsers may still reach the site over plain HTTP.'
        : verdict.reason === 'invalid'
          ? `Invalid Strict-Transport-Security (${verdict.error}); browsers ignore it.`
          : 'max-age=0 tells browsers to forget the HSTS policy.';
    return outcome(name, false, value, message, [TECH_HSTS_MISSING]);
  }
  const { policy, maxAge } = verdict;
  // TECH_HSTS_SHORT: the audit's verdict, phrased in the notes below.
  const short = hstsShortVerdict(verdict)?.short === true;
  const notes = [
    maxAge >= RECOMMENDED_HSTS_MAX_AGE
      ? `HSTS enabled for ${describeSeconds(maxAge)}.`
      : `HSTS enabled, but max-age=${maxAge} (${describeSeconds(maxAge)}) is below the ` +
        `recommended ${RECOMMENDED_HSTS_MAX_AGE} (1 year).`,
    policy.includeSubDomains
      ? 'Covers subdomains (includeSubDomains).'
      : 'Subdomains are not covered (no includeSubDomains).',
  ];
  if (policy.preload) {
    notes.push(
      policy.includeSubDomains && maxAge >= RECOMMENDED_HSTS_MAX_AGE
        ? 'Eligible for the browser preload list (preload).'
        : 'preload is set, but the preload list requires includeSubDomains and max-age of at least 1 year.',
    );
  }
  if (verdict.repeated) notes.push('Several HSTS headers were sent; browsers use only the first.');
  return outcome(name, true, value, notes.join(' '), short ? [TECH_HSTS_SHORT] : []);
}

/** `'unsafe-inline'` is ignored by browsers when a nonce, a hash or 'strict-dynamic' is present. */
function allowsInlineScript(policy: CspPolicy): boolean {
  const directive = scriptSourceDirective(policy);
  if (directive === null) return true;
  const sources = directive.sources.map((source) => source.toLowerCase());
  const neutralised = sources.some(
    (source) => source.startsWith("'nonce-") || /^'sha(256|384|512)-/.test(source) || source === "'strict-dynamic'",
  );
  return sources.includes("'unsafe-inline'") && !neutralised;
}

function allowsEval(policy: CspPolicy): boolean {
  const directive = scriptSourceDirective(policy);
  return directive === null || directive.sources.some((source) => source.toLowerCase() === "'unsafe-eval'");
}

function checkCsp(ctx: HeaderContext): CheckOutcome {
  const value = joined(ctx.values('content-security-policy'));
  const { present, policies, reportOnly } = cspVerdict(ctx.headers);
  if (!present) {
    return outcome(
      'content-security-policy',
      false,
      value,
      reportOnly
        ? 'Only Content-Security-Policy-Report-Only is sent: violations are reported but nothing is blocked.'
        : 'Missing Content-Security-Policy: no protection against injected scripts (XSS).',
      // The audit judges security headers on https only (on http anyone on the path can rewrite them).
      ctx.isHttps ? [TECH_CSP_MISSING] : [],
    );
  }
  // Every policy is enforced, so a script runs only if all policies allow it.
  const governed = policies.filter((policy) => scriptSourceDirective(policy) !== null);
  if (governed.length === 0) {
    return outcome(
      'content-security-policy',
      true,
      value,
      'Content-Security-Policy present, but it does not restrict scripts (no script-src or default-src).',
    );
  }
  const warnings: string[] = [];
  if (policies.every(allowsInlineScript)) {
    warnings.push(`${scriptSourceDirective(governed[0])!.name} allows 'unsafe-inline'`);
  }
  if (policies.every(allowsEval)) {
    warnings.push(`${scriptSourceDirective(governed[0])!.name} allows 'unsafe-eval'`);
  }
  return outcome(
    'content-security-policy',
    true,
    value,
    warnings.length === 0
      ? 'Content-Security-Policy present and restricts scripts.'
      : `Content-Security-Policy present, but ${warnings.join(' and ')}, which weakens XSS protection.`,
  );
}

function checkContentTypeOptions(ctx: HeaderContext): CheckOutcome {
  const value = joined(ctx.values('x-content-type-options'));
  const verdict = contentTypeOptionsVerdict(ctx.headers);
  const issues: CheckCode[] = ctx.isHttps && !verdict.nosniff ? [TECH_CONTENT_TYPE_OPTIONS_MISSING] : [];
  if (verdict.value === null) {
    return outcome(
      'x-content-type-options',
      false,
      null,
      'Missing X-Content-Type-Options: nosniff; browsers may MIME-sniff responses.',
      issues,
    );
  }
  return verdict.nosniff
    ? outcome('x-content-type-options', true, value, 'MIME sniffing is disabled (nosniff).')
    : outcome(
        'x-content-type-options',
        false,
        value,
        `X-Content-Type-Options must be "nosniff" (got "${verdict.value}").`,
        issues,
      );
}

function checkFrameProtection(ctx: HeaderContext): CheckOutcome {
  const verdict = frameProtectionVerdict(ctx.headers);
  if (verdict.protected) {
    return verdict.by === 'frame-ancestors'
      ? outcome('frame-protection', true, verdict.value, 'Framing is restricted by CSP frame-ancestors.')
      : outcome('frame-protection', true, verdict.value, `Framing is restricted by X-Frame-Options: ${verdict.value}.`);
  }
  const issues: CheckCode[] = ctx.isHttps ? [TECH_CLICKJACKING_UNPROTECTED] : [];
  const message = {
    'frame-ancestors-wildcard': "CSP frame-ancestors '*' lets any site embed the page (clickjacking).",
    absent: 'No X-Frame-Options or CSP frame-ancestors: any site can embed the page (clickjacking).',
    'x-frame-options-conflict': 'X-Frame-Options has conflicting values, so browsers ignore it.',
    'x-frame-options-invalid':
      `X-Frame-Options "${ctx.values('x-frame-options')[0]}" is not DENY or SAMEORIGIN (ALLOW-FROM is obsolete); ` +
      'use CSP frame-ancestors.',
  }[verdict.reason];
  return outcome('frame-protection', false, verdict.value, message, issues);
}

function checkReferrerPolicy(ctx: HeaderContext): CheckOutcome {
  const values = ctx.values('referrer-policy');
  const value = joined(values);
  if (values.length === 0) {
    return outcome(
      'referrer-policy',
      false,
      null,
      'Missing Referrer-Policy; set strict-origin-when-cross-origin (or stricter) explicitly.',
    );
  }
  const policy = effectiveReferrerPolicy(values);
  if (policy === null) {
    return outcome('referrer-policy', false, value, 'Referrer-Policy has no valid value; browsers ignore it.');
  }
  if (policy === 'unsafe-url' || policy === 'no-referrer-when-downgrade') {
    return outcome(
      'referrer-policy',
      false,
      value,
      `Referrer-Policy "${policy}" is weak: it sends the full URL (path and query) to other sites.`,
    );
  }
  return outcome('referrer-policy', true, value, `Referrer-Policy: ${policy}.`);
}

function checkPermissionsPolicy(ctx: HeaderContext): CheckOutcome {
  const values = ctx.values('permissions-policy').filter((entry) => entry.trim() !== '');
  if (values.length > 0) {
    return outcome('permissions-policy', true, joined(values), 'Permissions-Policy restricts browser features.');
  }
  const legacy = ctx.values('feature-policy');
  return outcome(
    'permissions-policy',
    false,
    joined(legacy),
    legacy.length > 0
      ? 'Only the deprecated Feature-Policy is sent; replace it with Permissions-Policy.'
      : 'Missing Permissions-Policy: browser features (camera, geolocation...) are not restricted.',
  );
}

function checkCompression(ctx: HeaderContext): CheckOutcome {
  const verdict = compressionVerdict(ctx.headers, { status: ctx.input.status, bodyBytes: ctx.input.bodyBytes });
  const value = verdict.encodings.length === 0 ? null : verdict.encodings.join(', ');
  if (!verdict.applies) {
    const { status } = ctx.input;
    const why = {
      'no-body': `Not applicable: a ${status} response has no body.`,
      'not-success': `Not applicable: only 2xx responses are checked, and this one answered ${status}.`,
      'no-content-type': 'Not applicable: no Content-Type, so compressibility is unknown.',
      'not-compressible': `Not needed: ${ctx.mediaType} is already a compressed format.`,
      'too-small': `Not needed: the ${verdict.bytes}-byte body is too small to benefit.`,
    }[verdict.reason];
    return outcome('compression', true, value, why);
  }
  if (verdict.compressed) return outcome('compression', true, value, `The response is compressed (${value}).`);
  return outcome(
    'compression',
    false,
    value,
    `The ${verdict.mediaType} response is not compressed; enable gzip, Brotli or zstd.`,
    [PERF_NO_COMPRESSION],
  );
}

function checkCaching(ctx: HeaderContext): CheckOutcome {
  const cacheControl = ctx.values('cache-control');
  const etag = ctx.values('etag');
  const lastModified = ctx.values('last-modified');
  const expires = ctx.values('expires');
  const parts = [
    cacheControl.length > 0 ? `Cache-Control: ${cacheControl.join(', ')}` : null,
    etag.length > 0 ? `ETag: ${etag[0]}` : null,
    lastModified.length > 0 ? `Last-Modified: ${lastModified[0]}` : null,
    expires.length > 0 && cacheControl.length === 0 ? `Expires: ${expires[0]}` : null,
  ].filter((part): part is string => part !== null);
  const value = parts.length === 0 ? null : parts.join('; ');
  const { directives, hasMaxAge, hasValidator, cacheable } = cacheVerdict(ctx.headers);
  const freshFor = directives.sMaxAge ?? directives.maxAge;
  // docs/scores.md: PERF_NO_CACHE_HEADERS concerns static assets lacking both max-age and validators.
  const issues: CheckCode[] = isStaticAssetResponse(ctx.headers) && !cacheable ? [PERF_NO_CACHE_HEADERS] : [];

  if (directives.noStore) {
    return outcome(
      'caching',
      false,
      value,
      'Cache-Control: no-store forbids caching; fine for private or per-user pages, costly for shared content.',
      issues,
    );
  }
  if (!hasMaxAge && !hasValidator) {
    return outcome(
      'caching',
      false,
      value,
      'No Cache-Control max-age, ETag or Last-Modified: browsers cannot cache or revalidate the response.',
      issues,
    );
  }
  const notes: string[] = [];
  if (hasMaxAge && freshFor !== null)
    notes.push(`Cacheable for ${freshFor} s${directives.immutable ? ' (immutable)' : ''}.`);
  if (hasValidator)
    notes.push(
      `Revalidation via ${[etag.length > 0 ? 'ETag' : null, lastModified.length > 0 ? 'Last-Modified' : null]
        .filter(Boolean)
        .join(' and ')}.`,
    );
  if (directives.noCache) notes.push('no-cache: every use is revalidated first.');
  if (directives.isPrivate) notes.push('private: shared caches and CDNs will not store it.');
  return outcome('caching', true, value, notes.join(' '), issues);
}

function checkXRobotsTag(ctx: HeaderContext): CheckOutcome {
  const values = ctx.values('x-robots-tag');
  const value = joined(values);
  if (values.length === 0) return outcome('x-robots-tag', true, null, 'No X-Robots-Tag: the page may be indexed.');
  const { noindex, nofollow } = xRobotsTagVerdict(ctx.headers);
  if (noindex) {
    return outcome(
      'x-robots-tag',
      false,
      value,
      `X-Robots-Tag noindex keeps the page out of search ` +
        `results${nofollow ? ', and nofollow stops link discovery' : ''}.`,
      [TECH_NOINDEX],
    );
  }
  return outcome(
    'x-robots-tag',
    true,
    value,
    nofollow
      ? 'The page may be indexed, but X-Robots-Tag nofollow stops search engines following its links.'
      : 'X-Robots-Tag allows indexing.',
  );
}

function checkContentTypeCharset(ctx: HeaderContext): CheckOutcome {
  const contentType = ctx.values('content-type')[0] ?? null;
  if (contentType === null) {
    return outcome('content-type-charset', false, null, 'Missing Content-Type header.');
  }
  const documentCharset = ctx.input.documentCharset?.trim() || null;
  const declared = charsetDeclared(ctx.headers, documentCharset);
  if (declared === null) {
    return outcome(
      'content-type-charset',
      true,
      contentType,
      `Not applicable: ${ctx.mediaType ?? 'unknown type'} is not HTML.`,
    );
  }
  const charset = charsetOf(contentType);
  if (charset !== null) {
    return outcome('content-type-charset', true, contentType, `The character encoding is declared (${charset}).`);
  }
  return outcome(
    'content-type-charset',
    false,
    contentType,
    declared
      ? `Content-Type has no charset; the document declares ${documentCharset} in a <meta> tag, which ` +
          `browsers find later.`
      : 'Content-Type has no charset parameter; declare it (e.g. text/html; charset=utf-8) unless the HTML has ' +
          '<meta charset>.',
    declared ? [] : [META_CHARSET_MISSING],
  );
}

function checkVersionDisclosure(ctx: HeaderContext): CheckOutcome {
  const disclosing: string[] = [];
  const present: string[] = [];
  for (const [header, label] of [
    ['server', 'Server'],
    ['x-powered-by', 'X-Powered-By'],
    ['x-aspnet-version', 'X-AspNet-Version'],
    ['x-aspnetmvc-version', 'X-AspNetMvc-Version'],
  ] as const) {
    for (const entry of ctx.values(header)) {
      const shown = `${label}: ${entry}`;
      present.push(shown);
      if (header.startsWith('x-aspnet') || VERSION_PATTERN.test(entry)) disclosing.push(shown);
    }
  }
  const value = present.length === 0 ? null : present.join('; ');
  if (disclosing.length > 0) {
    return outcome(
      'version-disclosure',
      false,
      value,
      `Software versions are disclosed (${disclosing.join('; ')}); this helps attackers match known vulnerabilities.`,
    );
  }
  return outcome(
    'version-disclosure',
    true,
    value,
    present.length === 0
      ? 'No Server or X-Powered-By details are disclosed.'
      : 'Server software is named but without a version.',
  );
}

/** The checks in report order; each is a pure function of the context. */
export const HEADER_CHECKS: ReadonlyArray<(ctx: HeaderContext) => CheckOutcome> = [
  checkHttps,
  checkRedirectChain,
  checkHsts,
  checkCsp,
  checkContentTypeOptions,
  checkFrameProtection,
  checkReferrerPolicy,
  checkPermissionsPolicy,
  checkCompression,
  checkCaching,
  checkXRobotsTag,
  checkContentTypeCharset,
  checkVersionDisclosure,
];

export function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export function contextFor(input: HeadersInput, headers: ResponseHeaders): HeaderContext {
  return {
    input,
    headers,
    values: (name) => headers.values(name),
    isHttps: isHttpsUrl(input.finalUrl),
    mediaType: headers.mediaType,
  };
}
