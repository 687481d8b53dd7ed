import { DEFAULT_CRAWL_OPTIONS, type CrawlOptions } from '../crawler/index.js';

/** The project settings that shape a crawl (ProjectSettings' crawl fields; the CLI's flags map onto the same). */
export interface AuditCrawlSettings {
  maxDepth?: number;
  crawlDelayMs?: number;
  userAgent?: string;
  respectRobots?: boolean;
}

/**
 * The crawl options of an audit, for the worker and `seo audit` alike: the same site with the same settings is
 * crawled the same way, so both compute their scores over the same facts.
 */
export function auditCrawlOptions(input: {
  startUrl: string;
  maxPages: number;
  settings?: AuditCrawlSettings;
  userAgent: string;
}): Omit<CrawlOptions, 'signal'> {
  const settings = input.settings ?? {};
  return {
    ...DEFAULT_CRAWL_OPTIONS,
    startUrl: input.startUrl,
    maxPages: input.maxPages,
    maxDepth: settings.maxDepth ?? DEFAULT_CRAWL_OPTIONS.maxDepth,
    delayMs: settings.crawlDelayMs ?? DEFAULT_CRAWL_OPTIONS.delayMs,
    userAgent: settings.userAgent ?? input.userAgent,
    respectRobots: settings.respectRobots ?? DEFAULT_CRAWL_OPTIONS.respectRobots,
  };
}
