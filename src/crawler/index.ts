export { SiteCrawler } from './site-crawler.js';
export {
  DEFAULT_CRAWL_OPTIONS,
  type CrawlOptions,
  type CrawlHooks,
  type CrawledPage,
  type CrawlProgress,
  type SiteFacts,
  type StartFailure,
} from './crawl.types.js';
export { createPageFactsPool, extractInline, type PageFactsExtract, type PageFactsPool } from './page-facts-pool.js';
