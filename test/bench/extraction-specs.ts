import type { ExtractorSpec } from '../../src/seo/extraction/index.js';

/**
 * A realistic project's 20 custom extractors (the most a project may have) over the generated bench site's pages
 * (audit-site-pages.ts): CSS text, attribute and inner HTML, XPath nodes, attributes and a count, regexes, and
 * contains / does-not-contain searches, plain and regex. Used by the audit bench's extraction arm and by the unit
 * test that checks the single-parse tree against parseDocument.
 */
const spec = (
  key: string,
  kind: ExtractorSpec['kind'],
  expression: string,
  over: Partial<Omit<ExtractorSpec, 'key' | 'kind' | 'expression'>> = {},
): ExtractorSpec => ({
  key,
  kind,
  expression,
  output: 'TEXT',
  attribute: null,
  match: 'FIRST',
  regex: false,
  ignoreCase: false,
  ...over,
});

const attribute = (name: string) => ({ output: 'ATTRIBUTE' as const, attribute: name });

export const BENCH_EXTRACTORS: readonly ExtractorSpec[] = [
  spec('heading', 'CSS', 'main article h1'),
  spec('title', 'CSS', 'head > title'),
  spec('captions', 'CSS', 'figure figcaption', { match: 'ALL' }),
  spec('related', 'CSS', 'aside.related li a', { match: 'ALL' }),
  spec('canonical', 'CSS', 'link[rel=canonical]', attribute('href')),
  spec('og_image', 'CSS', 'meta[property="og:image"]', attribute('content')),
  spec('images', 'CSS', 'article img', { match: 'ALL', ...attribute('src') }),
  spec('description', 'CSS', 'meta[name=description]', attribute('content')),
  spec('copyright', 'CSS', 'footer p', { output: 'INNER_HTML' }),
  spec('nav', 'CSS', 'header nav li:first-child a'),
  spec('subheads', 'XPATH', '//article/h2', { match: 'ALL' }),
  spec('viewport', 'XPATH', "//meta[@name='viewport']/@content"),
  spec('links', 'XPATH', 'count(//a[@href])'),
  spec('lead', 'XPATH', '//article/p[1]'),
  spec('jsonld', 'XPATH', "//script[@type='application/ld+json']"),
  spec('published', 'REGEX', '"datePublished":"([^"]+)"'),
  spec('meta_description', 'REGEX', '<meta name="description" content="([^"]+)"'),
  spec('has_jsonld', 'CONTAINS', 'application/ld+json'),
  spec('no_gtag', 'NOT_CONTAINS', 'gtag(', { ignoreCase: true }),
  spec('png_og_image', 'CONTAINS', 'og:image" content="[^"]+\\.png"', { regex: true }),
];
