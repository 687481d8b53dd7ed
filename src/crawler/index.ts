export { SiteCrawler } from './site-crawler.js';
export {
  DEFAULT_CRAWL_OPTIONS,
  type CrawlOptions,
  type CrawlHooks,
  type CrawledPage,
  type CrawlProgress,
  type SiteFacts,
  type StartFailure,
  type StartPageFacts,
  type CrawlScope,
  type QueryParameterMode,
  type ExternalLinkCache,
  type ExternalNotTried,
} from './crawl.types.js';
export {
  compileCrawlScope,
  compileScopePattern,
  isParameterName,
  scopePatternError,
  ScopePatternError,
  SCOPE_PATTERN_MAX_LENGTH,
  SCOPE_PATTERNS_MAX,
  type CompiledCrawlScope,
} from './crawl-scope.js';
export {
  createPageFactsPool,
  extractInline,
  PAGE_ANALYSIS_LIMITS,
  PageAnalysisError,
  type PageFactsExtract,
  type PageFactsPool,
  type PageFactsStop,
} from './page-facts-pool.js';
// Browser rendering mode: types only here; the code (and playwright-core) loads on demand, never in html mode.
export type {
  PageRenderer,
  PageRendererOptions,
  RenderInput,
  RenderOutput,
  RendererLease,
  RendererLeases,
} from './browser/index.js';
export const loadBrowserRendering = () => import('./browser/index.js');
// Login crawls: the mechanics (a login's fields and their rule, the form login, where credentials may go). A project's
// stored login — sealed, bound, set through the API — is a project setting (src/projects: CrawlLoginService).
export { validateCrawlLogin, type CrawlLoginInputData } from './crawl-login-input.js';
export {
  CrawlCookieJar,
  CrawlLoginFailure,
  credentialHosts,
  looksLikeLogout,
  openCrawlSession,
  type CrawlLoginScope,
} from './crawl-login.js';
export {
  bindingMismatch,
  bindingOf,
  describeBinding,
  parseBinding,
  type CrawlLoginBinding,
} from './crawl-login-binding.js';
export type {
  CrawlLogin,
  CrawlLoginFields,
  CrawlLoginKind,
  CrawlLoginNameValue,
  CrawlLoginSecrets,
} from './crawl-login.model.js';
