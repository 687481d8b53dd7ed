/** The GraphQL face of the crawler module: a project's crawl login (resolver and types). */
export { CrawlLoginResolver } from './crawl-login.resolver.js';
export { CrawlLoginType, CrawlLoginInput, CrawlLoginFieldInput, CrawlLoginKindEnum } from './crawl-login.types.js';
