/**
 * Every audit check, in report order: the families (a folder per category, a file per family of related codes),
 * each a list of `defineCheck` definitions. The catalog, the guidance, the evidence views, the evaluator registries
 * and the fix rules are derived from this list; a new check is one definition in its family's file.
 */
import { TITLE_CHECKS } from './meta/title.js';
import { DESCRIPTION_CHECKS } from './meta/description.js';
import { HEAD_CHECKS } from './meta/head.js';
import { BASICS_CHECKS } from './meta/basics.js';
import { SOCIAL_CHECKS } from './meta/social.js';
import { JSON_LD_CHECKS } from './meta/json-ld.js';
import { HREFLANG_CHECKS } from './meta/hreflang.js';
import { JSON_LD_RULE_CHECKS } from './meta/json-ld-rules.js';
import { HREFLANG_TARGET_CHECKS } from './meta/hreflang-targets.js';
import { VIEWPORT_CHECKS } from './meta/viewport.js';
import { SOCIAL_TAG_CHECKS } from './meta/social-tags.js';
import { HEADING_CHECKS } from './content/headings.js';
import { TEXT_CHECKS } from './content/text.js';
import { IMAGE_CHECKS } from './content/images.js';
import { MARKUP_CHECKS } from './content/markup.js';
import { CONTENT_HYGIENE_CHECKS } from './content/hygiene.js';
import { LINK_TARGET_CHECKS } from './links/targets.js';
import { LINK_STRUCTURE_CHECKS } from './links/structure.js';
import { LINK_HYGIENE_CHECKS } from './links/hygiene.js';
import { PAGINATION_CHECKS } from './links/pagination.js';
import { STATUS_CHECKS } from './technical/status.js';
import { INDEXING_CHECKS } from './technical/indexing.js';
import { ROBOTS_CHECKS } from './technical/robots.js';
import { SITEMAP_CHECKS } from './technical/sitemap.js';
import { CANONICAL_CHECKS } from './technical/canonical.js';
import { URL_CHECKS } from './technical/url.js';
import { TRANSPORT_CHECKS } from './technical/transport.js';
import { AI_SEARCH_CHECKS } from './technical/ai-search.js';
import { SECURITY_HEADER_CHECKS } from './technical/security-headers.js';
import { TECHNICAL_HYGIENE_CHECKS } from './technical/hygiene.js';
import { AMP_CHECKS } from './technical/amp.js';
import { RAW_VS_RENDERED_CHECKS } from './rendering/raw-vs-rendered.js';
import { BROWSER_CHECKS } from './rendering/browser.js';
import { METRIC_CHECKS } from './performance/metrics.js';
import { IMAGE_WEIGHT_CHECKS } from './performance/images.js';
import { DELIVERY_CHECKS } from './performance/delivery.js';
import { LOADING_CHECKS } from './performance/loading.js';

export const CHECK_DEFINITIONS = [
  ...TITLE_CHECKS,
  ...DESCRIPTION_CHECKS,
  ...HEAD_CHECKS,
  ...BASICS_CHECKS,
  ...SOCIAL_CHECKS,
  ...JSON_LD_CHECKS,
  ...HREFLANG_CHECKS,
  ...JSON_LD_RULE_CHECKS,
  ...HREFLANG_TARGET_CHECKS,
  ...VIEWPORT_CHECKS,
  ...SOCIAL_TAG_CHECKS,
  ...HEADING_CHECKS,
  ...TEXT_CHECKS,
  ...IMAGE_CHECKS,
  ...MARKUP_CHECKS,
  ...CONTENT_HYGIENE_CHECKS,
  ...LINK_TARGET_CHECKS,
  ...LINK_STRUCTURE_CHECKS,
  ...LINK_HYGIENE_CHECKS,
  ...PAGINATION_CHECKS,
  ...STATUS_CHECKS,
  ...INDEXING_CHECKS,
  ...ROBOTS_CHECKS,
  ...SITEMAP_CHECKS,
  ...CANONICAL_CHECKS,
  ...URL_CHECKS,
  ...TRANSPORT_CHECKS,
  ...AI_SEARCH_CHECKS,
  ...SECURITY_HEADER_CHECKS,
  ...TECHNICAL_HYGIENE_CHECKS,
  ...AMP_CHECKS,
  ...RAW_VS_RENDERED_CHECKS,
  ...BROWSER_CHECKS,
  ...METRIC_CHECKS,
  ...IMAGE_WEIGHT_CHECKS,
  ...DELIVERY_CHECKS,
  ...LOADING_CHECKS,
] as const;

/** The families, in report order, for the docs (docs/checks/). */
export const CHECK_FAMILIES = [
  { path: 'meta/title', title: 'Titles', checks: TITLE_CHECKS },
  { path: 'meta/description', title: 'Meta descriptions', checks: DESCRIPTION_CHECKS },
  { path: 'meta/head', title: 'The head: viewport, language, charset, doctype, favicon', checks: HEAD_CHECKS },
  { path: 'meta/basics', title: 'On-page basics together', checks: BASICS_CHECKS },
  { path: 'meta/social', title: 'Social cards present', checks: SOCIAL_CHECKS },
  { path: 'meta/json-ld', title: 'JSON-LD validity', checks: JSON_LD_CHECKS },
  { path: 'meta/hreflang', title: 'Hreflang annotations', checks: HREFLANG_CHECKS },
  { path: 'meta/json-ld-rules', title: 'Structured data rules', checks: JSON_LD_RULE_CHECKS },
  { path: 'meta/hreflang-targets', title: 'Hreflang targets and languages', checks: HREFLANG_TARGET_CHECKS },
  { path: 'meta/viewport', title: 'Viewport', checks: VIEWPORT_CHECKS },
  { path: 'meta/social-tags', title: 'Open Graph and Twitter tags', checks: SOCIAL_TAG_CHECKS },
  { path: 'content/headings', title: 'Headings', checks: HEADING_CHECKS },
  { path: 'content/text', title: 'Thin and duplicate content', checks: TEXT_CHECKS },
  { path: 'content/images', title: 'Images', checks: IMAGE_CHECKS },
  { path: 'content/markup', title: 'Link text, ids and text ratio', checks: MARKUP_CHECKS },
  { path: 'content/hygiene', title: 'Content hygiene', checks: CONTENT_HYGIENE_CHECKS },
  { path: 'links/targets', title: 'Link targets', checks: LINK_TARGET_CHECKS },
  { path: 'links/structure', title: 'Site structure', checks: LINK_STRUCTURE_CHECKS },
  { path: 'links/hygiene', title: 'Link hygiene', checks: LINK_HYGIENE_CHECKS },
  { path: 'links/pagination', title: 'Pagination', checks: PAGINATION_CHECKS },
  { path: 'technical/status', title: 'Status and fetch', checks: STATUS_CHECKS },
  { path: 'technical/indexing', title: 'Noindex', checks: INDEXING_CHECKS },
  { path: 'technical/robots', title: 'robots.txt', checks: ROBOTS_CHECKS },
  { path: 'technical/sitemap', title: 'Sitemaps', checks: SITEMAP_CHECKS },
  { path: 'technical/canonical', title: 'Canonical URLs', checks: CANONICAL_CHECKS },
  { path: 'technical/url', title: 'URL style', checks: URL_CHECKS },
  { path: 'technical/transport', title: 'HTTPS, resources and HTML size', checks: TRANSPORT_CHECKS },
  { path: 'technical/ai-search', title: 'AI search', checks: AI_SEARCH_CHECKS },
  { path: 'technical/security-headers', title: 'Security headers and cookies', checks: SECURITY_HEADER_CHECKS },
  { path: 'technical/hygiene', title: 'Technical hygiene', checks: TECHNICAL_HYGIENE_CHECKS },
  { path: 'technical/amp', title: 'AMP', checks: AMP_CHECKS },
  { path: 'rendering/raw-vs-rendered', title: 'Raw HTML against the rendered page', checks: RAW_VS_RENDERED_CHECKS },
  { path: 'rendering/browser', title: 'What the browser saw', checks: BROWSER_CHECKS },
  { path: 'performance/metrics', title: 'Lab and field metrics', checks: METRIC_CHECKS },
  { path: 'performance/images', title: 'Image weight and dimensions', checks: IMAGE_WEIGHT_CHECKS },
  { path: 'performance/delivery', title: 'Compression, render blocking, caching', checks: DELIVERY_CHECKS },
  { path: 'performance/loading', title: 'Image formats and lazy loading', checks: LOADING_CHECKS },
] as const;
