/** Page analysis: one streaming pass over an HTML document -> the facts every check needs. */
export { extractPageFacts } from './page-facts.extractor.js';
export { DepthCappedParser, MAX_ELEMENT_DEPTH } from './depth-capped-parser.js';
export { LINK_POSITIONS, PAGE_FACT_LIMITS, linksNotRead } from './page-facts.types.js';
export type {
  CanonicalFact,
  HeaderMap,
  HeadingFact,
  HreflangFact,
  ImageFact,
  JsonLdBlock,
  LinkFact,
  LinkKind,
  LinkPosition,
  MixedContentFact,
  PageContext,
  PageExtractionRequest,
  PageFacts,
  ResourceFact,
  ResourceKind,
  RobotsDirectives,
} from './page-facts.types.js';
export { charsetOf, firstHeader, headerValues, isHtmlContentType } from './header-values.js';
export { parseLinkHeader, relHas, type LinkHeaderEntry } from './http-link-header.js';
export {
  isAbsoluteUrl,
  isHttpProtocol,
  isLoopbackHost,
  isSameSite,
  normalizeUrl,
  resolveUrl,
  siteKey,
  withoutFragment,
} from './link-url.js';
export { rankingUrlVariants } from './ranking-url-variants.js';
export { parseRobotsContent, parseXRobotsTag } from './robots-directives.js';
export { hammingDistance, popcount32, SIMHASH_BITS, simhashHalves, simhashSimilarity } from './simhash.js';
export { decodeDocument } from './document-decoding.js';
export { UrlCounts, UrlTable } from './url-table.js';
