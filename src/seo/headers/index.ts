/** HTTP response header analysis (security, caching, compression, indexing): pure, no I/O. */
export { analyzeHeaders } from './headers-analyzer.js';
export { COMPRESSION_MIN_BYTES, RECOMMENDED_HSTS_MAX_AGE } from './header-checks.js';
export {
  cacheVerdict,
  charsetDeclared,
  compressionVerdict,
  contentEncodings,
  hstsVerdict,
  isCompressibleType,
  isHtmlType,
  isPlainHttp,
  isRedirectChain,
  isStaticAssetResponse,
  isStaticAssetType,
  parseResponseHeaders,
  sharedResponseHeaders,
  xRobotsTagVerdict,
} from './response-verdicts.js';
export type { CacheVerdict, CompressionVerdict, HstsVerdict, ResponseHeaders } from './response-verdicts.js';
export {
  REFERRER_POLICIES,
  effectiveReferrerPolicy,
  mediaTypeOf,
  parseCacheControl,
  parseCsp,
  parseHsts,
  scriptSourceDirective,
} from './header-directives.js';
export type { CacheControl, CspPolicy, HstsPolicy, ReferrerPolicy } from './header-directives.js';
export { HEADER_CHECK_NAMES } from './headers.types.js';
export type {
  HeaderCheck,
  HeaderCheckName,
  HeaderIssue,
  HeaderRecord,
  HeadersInput,
  HeadersRedirectHop,
  HeadersReport,
} from './headers.types.js';
