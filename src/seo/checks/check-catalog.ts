/** The audit check catalog (CHECKS.md): one row per stable code. Thresholds live in check-thresholds.ts. */

export type Severity = 'CRITICAL' | 'WARNING' | 'NOTICE';
export type Category = 'META' | 'CONTENT' | 'LINKS' | 'TECHNICAL' | 'PERFORMANCE';
/** `page`: evaluated per crawled page; `site`: once per audit (pass rate 0 or 1). */
export type CheckScope = 'page' | 'site';

export const CATEGORIES: readonly Category[] = ['META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'];
export const SEVERITIES: readonly Severity[] = ['CRITICAL', 'WARNING', 'NOTICE'];

export interface CheckDefinition {
  code: string;
  title: string;
  severity: Severity;
  category: Category;
  scope: CheckScope;
  /** The rule, in one sentence. */
  description: string;
  /** Banded metrics: WARNING above the first band, escalated to CRITICAL above the second. */
  banded?: true;
}

type Defined<C extends string, S extends CheckScope> = CheckDefinition & { code: C; scope: S };

const def = <C extends string, S extends CheckScope>(
  code: C,
  title: string,
  severity: Severity,
  category: Category,
  scope: S,
  description: string,
): Defined<C, S> => ({ code, title, severity, category, scope, description });

const band = <C extends string>(code: C, title: string, description: string): Defined<C, 'page'> => ({
  code,
  title,
  severity: 'WARNING',
  category: 'PERFORMANCE',
  scope: 'page',
  description,
  banded: true,
});

export const CHECK_CATALOG = [
  // META
  def(
    'META_TITLE_MISSING',
    'Missing title',
    'CRITICAL',
    'META',
    'page',
    'The page has no <title>, or it is empty after trimming.',
  ),
  def('META_TITLE_TOO_SHORT', 'Title too short', 'NOTICE', 'META', 'page', 'The title is under 30 characters.'),
  def(
    'META_TITLE_TOO_LONG',
    'Title too long',
    'WARNING',
    'META',
    'page',
    'The title is over 60 characters and will likely be truncated in results.',
  ),
  def(
    'META_TITLE_MULTIPLE',
    'Multiple titles',
    'WARNING',
    'META',
    'page',
    'The page has more than one <title> element.',
  ),
  def(
    'META_TITLE_DUPLICATE',
    'Duplicate title',
    'WARNING',
    'META',
    'site',
    'The same title is used on more than one indexable page.',
  ),
  def(
    'META_DESCRIPTION_MISSING',
    'Missing meta description',
    'WARNING',
    'META',
    'page',
    'The page has no meta description, or it is empty.',
  ),
  def(
    'META_DESCRIPTION_TOO_SHORT',
    'Meta description too short',
    'NOTICE',
    'META',
    'page',
    'The meta description is under 70 characters.',
  ),
  def(
    'META_DESCRIPTION_TOO_LONG',
    'Meta description too long',
    'NOTICE',
    'META',
    'page',
    'The meta description is over 160 characters.',
  ),
  def(
    'META_DESCRIPTION_MULTIPLE',
    'Multiple meta descriptions',
    'WARNING',
    'META',
    'page',
    'The page has more than one meta description.',
  ),
  def(
    'META_DESCRIPTION_DUPLICATE',
    'Duplicate meta description',
    'WARNING',
    'META',
    'site',
    'The same meta description is used on more than one indexable page.',
  ),
  def(
    'META_TAGS_IN_BODY',
    'Head tags inside body',
    'WARNING',
    'META',
    'page',
    'A title, meta or canonical link appears inside <body>, where search engines ignore it.',
  ),
  def(
    'META_VIEWPORT_MISSING',
    'Missing viewport',
    'WARNING',
    'META',
    'page',
    'The page has no meta viewport, so mobile browsers render it at desktop width.',
  ),
  def(
    'META_VIEWPORT_NO_ZOOM',
    'Viewport blocks zooming',
    'WARNING',
    'META',
    'page',
    'The viewport sets user-scalable=no or a maximum-scale below 5.',
  ),
  def('META_LANG_MISSING', 'Missing language', 'WARNING', 'META', 'page', 'The <html> element has no lang attribute.'),
  def(
    'META_LANG_INVALID',
    'Invalid language',
    'WARNING',
    'META',
    'page',
    'The <html> lang attribute is not a valid BCP 47 language tag.',
  ),
  def(
    'META_CHARSET_MISSING',
    'Missing charset',
    'NOTICE',
    'META',
    'page',
    'No character encoding is declared in a meta tag or the Content-Type header.',
  ),
  def(
    'META_DOCTYPE_MISSING',
    'Missing doctype',
    'NOTICE',
    'META',
    'page',
    'The document does not start with <!DOCTYPE html>, so browsers use quirks mode.',
  ),
  def(
    'META_FAVICON_MISSING',
    'Missing favicon',
    'NOTICE',
    'META',
    'site',
    'The home page links no icon and /favicon.ico does not answer 200.',
  ),
  def(
    'META_OPEN_GRAPH_MISSING',
    'Missing Open Graph tags',
    'NOTICE',
    'META',
    'page',
    'None of og:title, og:description or og:image is set.',
  ),
  def(
    'META_TWITTER_CARD_MISSING',
    'Missing Twitter card',
    'NOTICE',
    'META',
    'page',
    'No twitter:card meta tag is set.',
  ),
  def(
    'META_JSONLD_INVALID',
    'Invalid JSON-LD',
    'WARNING',
    'META',
    'page',
    'An application/ld+json block does not parse as JSON.',
  ),
  def(
    'META_JSONLD_REQUIRED_MISSING',
    'Structured data missing required properties',
    'WARNING',
    'META',
    'page',
    'A Product, Article, FAQPage, Review or BreadcrumbList entity lacks properties it requires.',
  ),
  def(
    'META_HREFLANG_INVALID',
    'Invalid hreflang value',
    'WARNING',
    'META',
    'page',
    'An hreflang value is not a language(-region) code or x-default.',
  ),
  def(
    'META_HREFLANG_RELATIVE',
    'Relative hreflang URL',
    'WARNING',
    'META',
    'page',
    'An hreflang alternate URL is not absolute.',
  ),
  def(
    'META_HREFLANG_NO_SELF',
    'Hreflang without self-reference',
    'WARNING',
    'META',
    'page',
    'The hreflang set does not reference the page itself.',
  ),
  def(
    'META_HREFLANG_NO_RETURN',
    'Hreflang without return link',
    'WARNING',
    'META',
    'site',
    'An hreflang target does not link back to the page with hreflang.',
  ),
  def(
    'META_HREFLANG_NO_X_DEFAULT',
    'Hreflang without x-default',
    'NOTICE',
    'META',
    'page',
    'The hreflang set has no x-default entry.',
  ),
  // CONTENT
  def('CONTENT_H1_MISSING', 'Missing H1', 'WARNING', 'CONTENT', 'page', 'The page has no <h1> heading.'),
  def('CONTENT_H1_MULTIPLE', 'Multiple H1', 'NOTICE', 'CONTENT', 'page', 'The page has more than one <h1> heading.'),
  def(
    'CONTENT_HEADING_SKIP',
    'Skipped heading level',
    'NOTICE',
    'CONTENT',
    'page',
    'A heading level is skipped (for example h2 followed by h4).',
  ),
  def(
    'CONTENT_THIN',
    'Thin content',
    'WARNING',
    'CONTENT',
    'page',
    'An indexable page has under 200 words of visible body text.',
  ),
  def(
    'CONTENT_DUPLICATE',
    'Duplicate content',
    'WARNING',
    'CONTENT',
    'site',
    'Another indexable page has identical normalized body text.',
  ),
  def(
    'CONTENT_NEAR_DUPLICATE',
    'Near-duplicate content',
    'NOTICE',
    'CONTENT',
    'site',
    'Another indexable page is 90% or more similar (SimHash).',
  ),
  def(
    'CONTENT_IMAGE_ALT_MISSING',
    'Image without alt text',
    'WARNING',
    'CONTENT',
    'page',
    'An <img> has no alt attribute (alt="" is valid for decorative images).',
  ),
  def(
    'CONTENT_IMAGE_ALT_TOO_LONG',
    'Image alt text too long',
    'NOTICE',
    'CONTENT',
    'page',
    'An image alt text is over 100 characters.',
  ),
  def(
    'CONTENT_IMAGE_BROKEN',
    'Broken image',
    'WARNING',
    'CONTENT',
    'page',
    'An image the page shows (<img> src or srcset, <picture> source, video poster) answers 4xx/5xx or cannot be ' +
      'fetched.',
  ),
  def(
    'CONTENT_LINK_TEXT_GENERIC',
    'Generic link text',
    'NOTICE',
    'CONTENT',
    'page',
    'A link says "click here", "read more" or similar instead of describing its target.',
  ),
  def(
    'CONTENT_DUPLICATE_ID',
    'Duplicate element id',
    'NOTICE',
    'CONTENT',
    'page',
    'Several elements share the same id attribute.',
  ),
  def(
    'CONTENT_LOW_TEXT_RATIO',
    'Low text-to-HTML ratio',
    'NOTICE',
    'CONTENT',
    'page',
    'Visible text is under 10% of the HTML bytes.',
  ),
  // LINKS
  def(
    'LINKS_INTERNAL_BROKEN',
    'Broken internal link',
    'CRITICAL',
    'LINKS',
    'page',
    'An internal link target answers 4xx/5xx or cannot be fetched.',
  ),
  def(
    'LINKS_EXTERNAL_BROKEN',
    'Broken external link',
    'WARNING',
    'LINKS',
    'page',
    'An external link target answers 4xx/5xx or cannot be reached (connection refused, DNS failure, timeout, ' +
      'TLS error).',
  ),
  def(
    'LINKS_TO_REDIRECT',
    'Link to a redirect',
    'WARNING',
    'LINKS',
    'page',
    'An internal link points to a URL that redirects.',
  ),
  def(
    'LINKS_REDIRECT_CHAIN',
    'Redirect chain',
    'WARNING',
    'LINKS',
    'page',
    'Reaching the URL takes 2 or more redirect hops.',
  ),
  def(
    'LINKS_REDIRECT_LOOP',
    'Redirect loop',
    'CRITICAL',
    'LINKS',
    'page',
    'The redirects return to a URL already visited.',
  ),
  def(
    'LINKS_ORPHAN',
    'Orphan page',
    'WARNING',
    'LINKS',
    'site',
    'A URL listed in the sitemap (other than the start URL and URLs robots.txt disallows) that no crawled page ' +
      'links to, directly or through a redirect; judged only when the crawl was not cut by a page cap.',
  ),
  def('LINKS_DEAD_END', 'Page without outgoing links', 'NOTICE', 'LINKS', 'page', 'The page links to no other page.'),
  def('LINKS_TOO_MANY', 'Too many links', 'NOTICE', 'LINKS', 'page', 'The page has over 100 links.'),
  def(
    'LINKS_INTERNAL_NOFOLLOW',
    'Nofollow internal link',
    'NOTICE',
    'LINKS',
    'page',
    'An internal link has rel=nofollow.',
  ),
  def(
    'LINKS_HTTPS_TO_HTTP',
    'Link from HTTPS to HTTP',
    'WARNING',
    'LINKS',
    'page',
    'An https page links to an http URL.',
  ),
  def(
    'LINKS_UNCRAWLABLE',
    'Uncrawlable link',
    'WARNING',
    'LINKS',
    'page',
    'An <a> has no resolvable href (javascript:, empty or "#" only).',
  ),
  def(
    'LINKS_DEPTH_HIGH',
    'Page too deep',
    'NOTICE',
    'LINKS',
    'page',
    'The page is more than 4 clicks from the start URL.',
  ),
  def('LINKS_LOCALHOST', 'Link to localhost', 'WARNING', 'LINKS', 'page', 'A link points to localhost or 127.0.0.1.'),
  // TECHNICAL
  def(
    'TECH_STATUS_4XX',
    'Page answers 4xx',
    'CRITICAL',
    'TECHNICAL',
    'page',
    'The crawled page answers with a 4xx status.',
  ),
  def(
    'TECH_STATUS_5XX',
    'Page answers 5xx',
    'CRITICAL',
    'TECHNICAL',
    'page',
    'The crawled page answers with a 5xx status.',
  ),
  def('TECH_TIMEOUT', 'Page timed out', 'CRITICAL', 'TECHNICAL', 'page', 'Fetching the page timed out.'),
  def(
    'PAGE_FETCH_FAILED',
    'Page could not be fetched',
    'CRITICAL',
    'TECHNICAL',
    'page',
    'No usable response: the connection failed or was refused, the host did not resolve, the fetch timed out ' +
      'or redirected in a loop, or the address is refused.',
  ),
  def(
    'TECH_NOINDEX',
    'Noindex page',
    'NOTICE',
    'TECHNICAL',
    'page',
    'The page is noindex via meta robots or X-Robots-Tag.',
  ),
  def(
    'TECH_NOINDEX_SITEWIDE',
    'Site-wide noindex',
    'CRITICAL',
    'TECHNICAL',
    'site',
    '90% or more of the crawled HTML pages are noindex.',
  ),
  // A notice, not CHECKS.md's warning: a 404 robots.txt means "crawl everything", which harms nothing (issue 26).
  def('TECH_ROBOTS_MISSING', 'Missing robots.txt', 'NOTICE', 'TECHNICAL', 'site', '/robots.txt answers 404.'),
  def(
    'TECH_ROBOTS_UNREACHABLE',
    'Unreachable robots.txt',
    'CRITICAL',
    'TECHNICAL',
    'site',
    '/robots.txt answers 5xx or times out, so crawlers treat the whole site as disallowed.',
  ),
  def(
    'TECH_ROBOTS_BLOCKS_ALL',
    'Robots.txt blocks all crawlers',
    'CRITICAL',
    'TECHNICAL',
    'site',
    'robots.txt has Disallow: / for user-agent *.',
  ),
  def(
    'TECH_ROBOTS_INVALID',
    'Invalid robots.txt',
    'WARNING',
    'TECHNICAL',
    'site',
    'robots.txt has an unknown directive, a rule before any user-agent, or a path not starting with / or *.',
  ),
  def(
    'TECH_BLOCKED_BY_ROBOTS',
    'Link blocked by robots.txt',
    'NOTICE',
    'TECHNICAL',
    'page',
    "A linked URL is disallowed for the crawler's user agent.",
  ),
  def(
    'TECH_SITEMAP_MISSING',
    'Missing sitemap',
    'WARNING',
    'TECHNICAL',
    'site',
    'robots.txt names no sitemap and /sitemap.xml does not answer 200.',
  ),
  def(
    'TECH_SITEMAP_INVALID',
    'Invalid sitemap',
    'WARNING',
    'TECHNICAL',
    'site',
    'The sitemap does not parse, exceeds 50,000 URLs or 50 MiB, or lists URLs of other hosts.',
  ),
  def(
    'TECH_SITEMAP_NON_INDEXABLE',
    'Non-indexable URL in sitemap',
    'WARNING',
    'TECHNICAL',
    'page',
    'The sitemap lists a URL that is noindex, canonicalized elsewhere, redirected or 4xx/5xx.',
  ),
  def(
    'TECH_SITEMAP_BLOCKED_BY_ROBOTS',
    'Sitemap URL blocked by robots.txt',
    'WARNING',
    'TECHNICAL',
    'site',
    'The sitemap lists URLs that robots.txt disallows, so crawlers may not fetch them.',
  ),
  def(
    'TECH_CANONICAL_MULTIPLE',
    'Multiple canonicals',
    'WARNING',
    'TECHNICAL',
    'page',
    'The page declares more than one canonical URL.',
  ),
  def(
    'TECH_CANONICAL_RELATIVE',
    'Relative canonical',
    'WARNING',
    'TECHNICAL',
    'page',
    'The canonical URL is not absolute.',
  ),
  def(
    'TECH_CANONICAL_MISMATCH',
    'Canonical mismatch',
    'WARNING',
    'TECHNICAL',
    'page',
    'The HTML canonical differs from the Link header canonical.',
  ),
  def(
    'TECH_CANONICAL_MISSING',
    'Page served under two URLs without a canonical',
    'WARNING',
    'TECHNICAL',
    'site',
    'The same page answers under two URLs (such as / and /index.html) and does not name its canonical URL.',
  ),
  def(
    'TECH_CANONICAL_TO_BROKEN',
    'Canonical to a bad target',
    'WARNING',
    'TECHNICAL',
    'page',
    'The canonical target redirects, is noindex or answers 4xx/5xx.',
  ),
  def('TECH_URL_UPPERCASE', 'Uppercase URL', 'NOTICE', 'TECHNICAL', 'page', 'The URL path has uppercase letters.'),
  def('TECH_URL_UNDERSCORE', 'Underscore in URL', 'NOTICE', 'TECHNICAL', 'page', 'The URL path has underscores.'),
  def('TECH_URL_TOO_LONG', 'URL too long', 'NOTICE', 'TECHNICAL', 'page', 'The URL is over 115 characters.'),
  def(
    'TECH_HTTP_PAGE',
    'Page served over HTTP',
    'CRITICAL',
    'TECHNICAL',
    'page',
    'The page is served over http without a redirect to https.',
  ),
  def('TECH_MIXED_CONTENT', 'Mixed content', 'WARNING', 'TECHNICAL', 'page', 'An https page loads http resources.'),
  def(
    'TECH_RESOURCE_BROKEN',
    'Broken resource',
    'WARNING',
    'TECHNICAL',
    'page',
    'A script, stylesheet, icon, font, media file or other subresource the page loads answers 4xx/5xx or ' +
      'cannot be fetched.',
  ),
  def(
    'TECH_RESOURCE_PRIVATE_ADDRESS',
    'Resource on a private address',
    'WARNING',
    'TECHNICAL',
    'page',
    'A subresource points at a loopback, private, link-local or metadata address that visitors cannot reach; ' +
      'it is not fetched.',
  ),
  def(
    'TECH_HSTS_MISSING',
    'Missing HSTS',
    'NOTICE',
    'TECHNICAL',
    'site',
    'The https site sends no Strict-Transport-Security header.',
  ),
  def('TECH_HTML_TOO_LARGE', 'HTML too large', 'WARNING', 'TECHNICAL', 'page', 'The HTML document is over 1 MiB.'),
  def(
    'TECH_AI_SEARCH_BLOCKED',
    'AI search crawlers blocked',
    'WARNING',
    'TECHNICAL',
    'site',
    'robots.txt blocks OAI-SearchBot, ChatGPT-User, PerplexityBot or Claude-User.',
  ),
  def('TECH_LLMS_TXT_MISSING', 'Missing llms.txt', 'NOTICE', 'TECHNICAL', 'site', '/llms.txt does not answer 200.'),
  // PERFORMANCE
  band('PERF_LCP', 'Slow Largest Contentful Paint', 'LCP over 2,500 ms (warning) or 4,000 ms (critical).'),
  band('PERF_CLS', 'High Cumulative Layout Shift', 'CLS over 0.1 (warning) or 0.25 (critical).'),
  band('PERF_INP', 'Slow Interaction to Next Paint', 'INP over 200 ms (warning) or 500 ms (critical).'),
  band('PERF_TBT', 'High Total Blocking Time', 'TBT over 200 ms (warning) or 600 ms (critical).'),
  band('PERF_FCP', 'Slow First Contentful Paint', 'FCP over 1,800 ms (warning) or 3,000 ms (critical).'),
  band('PERF_TTFB', 'Slow server response (TTFB)', 'Time to first byte over 800 ms (warning) or 1,800 ms (critical).'),
  band('PERF_DOM_SIZE', 'Excessive DOM size', 'Over 1,500 elements (warning) or 3,000 (critical).'),
  band('PERF_PAGE_WEIGHT', 'Heavy page', 'Total page weight over 2,667 KiB (warning) or 4,000 KiB (critical).'),
  def('PERF_IMAGE_TOO_LARGE', 'Large image', 'WARNING', 'PERFORMANCE', 'page', 'An image is over 200 KiB.'),
  def(
    'PERF_IMAGE_NO_DIMENSIONS',
    'Image without dimensions',
    'NOTICE',
    'PERFORMANCE',
    'page',
    'An <img> lacks width and height attributes, which causes layout shifts.',
  ),
  def(
    'PERF_NO_COMPRESSION',
    'Uncompressed response',
    'NOTICE',
    'PERFORMANCE',
    'page',
    'A text response is sent without gzip, br or zstd compression.',
  ),
  def(
    'PERF_RENDER_BLOCKING',
    'Render-blocking resources',
    'NOTICE',
    'PERFORMANCE',
    'page',
    'A synchronous script in <head> without async/defer, or many blocking stylesheets.',
  ),
  def(
    'PERF_NO_CACHE_HEADERS',
    'Static asset without caching',
    'NOTICE',
    'PERFORMANCE',
    'page',
    'A static asset has no Cache-Control max-age and no ETag/Last-Modified.',
  ),
] as const satisfies readonly CheckDefinition[];

export type CheckCode = (typeof CHECK_CATALOG)[number]['code'];
export type PageCheckCode = Extract<(typeof CHECK_CATALOG)[number], { scope: 'page' }>['code'];
export type SiteCheckCode = Extract<(typeof CHECK_CATALOG)[number], { scope: 'site' }>['code'];

export const CHECKS_BY_CODE: ReadonlyMap<string, CheckDefinition> = new Map(
  CHECK_CATALOG.map((check) => [check.code, check]),
);

export const SEVERITY_WEIGHTS: Readonly<Record<Severity, number>> = { CRITICAL: 10, WARNING: 5, NOTICE: 1 };

/** The catalog's entry for a code, or undefined (a code stored by an older version may have left the catalog). */
export function findCheck(code: string): CheckDefinition | undefined {
  return CHECKS_BY_CODE.get(code);
}

export function getCheck(code: string): CheckDefinition {
  const check = CHECKS_BY_CODE.get(code);
  if (!check) throw new RangeError(`unknown check code ${code}`);
  return check;
}

/** The more severe of two severities. */
export function maxSeverity(a: Severity, b: Severity): Severity {
  return SEVERITY_WEIGHTS[a] >= SEVERITY_WEIGHTS[b] ? a : b;
}
