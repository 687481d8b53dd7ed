export { validateSitemap } from './sitemap-validator.js';
export { isW3cDatetime, parseW3cDatetime, type W3cDatetimeResult } from './w3c-datetime.js';
export {
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_ENTRIES,
  SITEMAP_MAX_LOC_LENGTH,
  SITEMAP_NAMESPACE,
  type SitemapAnalysis,
  type SitemapEntry,
  type SitemapIndexEntry,
  type SitemapInput,
  type SitemapIssue,
  type SitemapIssueCode,
  type SitemapType,
  type SitemapValidationOptions,
} from './sitemap.types.js';
