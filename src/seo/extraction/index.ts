/** Custom extraction and search: a project's extractors, checked at save and evaluated on each crawled page. */
export {
  EXTRACTION_LIMITS,
  EXTRACTOR_KINDS,
  EXTRACTOR_MATCHES,
  EXTRACTOR_OUTPUTS,
  isSearch,
  type ExtractionValue,
  type ExtractorKind,
  type ExtractorMatch,
  type ExtractorOutput,
  type ExtractorSpec,
  type PageExtraction,
} from './custom-extractor.types.js';
export {
  compileExtraction,
  extractorProblem,
  TREE_OPTIONS,
  type CompiledExtraction,
  type EvaluateOptions,
} from './custom-extraction.evaluator.js';
export { DocumentTee } from './document-tee.js';
export { regexHazard } from './regex-hazard.js';
export { compileXPath, XPathSyntaxError } from './xpath.js';
