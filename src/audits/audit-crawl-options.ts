import { DEFAULT_CRAWL_OPTIONS, type CrawlOptions, type CrawlScope } from '../crawler/index.js';
import type { ProjectSettings } from '../projects/index.js';

/** The project settings that shape a crawl (the CLI's flags map onto the same). */
export type AuditCrawlSettings = Pick<
  ProjectSettings,
  | 'maxDepth'
  | 'crawlDelayMs'
  | 'userAgent'
  | 'respectRobots'
  | 'renderingMode'
  | 'includePatterns'
  | 'excludePatterns'
  | 'crawlSubdomains'
  | 'listMode'
  | 'startUrls'
  | 'queryParameters'
  | 'droppedParameters'
>;

/** The crawl scope of these settings; undefined when they set none (the start URL's host, every path). */
export function crawlScopeOf(settings: AuditCrawlSettings): CrawlScope | undefined {
  const scope: CrawlScope = {};
  if (settings.includePatterns?.length) scope.include = settings.includePatterns;
  if (settings.excludePatterns?.length) scope.exclude = settings.excludePatterns;
  if (settings.crawlSubdomains) scope.includeSubdomains = true;
  if (settings.listMode === 'urls') scope.list = { source: 'urls', urls: settings.startUrls ?? [] };
  else if (settings.listMode === 'sitemap') scope.list = { source: 'sitemap' };
  if (settings.queryParameters && settings.queryParameters !== 'keep') scope.queryParameters = settings.queryParameters;
  if (settings.queryParameters === 'drop-listed') scope.droppedParameters = settings.droppedParameters ?? [];
  return Object.keys(scope).length ? scope : undefined;
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
    rendering: settings.renderingMode === 'browser' ? 'browser' : 'html',
    ...(crawlScopeOf(settings) && { scope: crawlScopeOf(settings) }),
  };
}
