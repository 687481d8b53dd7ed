/** The audit check catalog, per-page and site-wide checks, and their aggregation into issues. */
export {
  CATEGORIES,
  CHARGED_WITH,
  CHECK_CATALOG,
  CHECKS_BY_CODE,
  LAB_CHECK_CODES,
  RENDERING_CHECK_CODES,
  REQUESTED_URL_CODES,
  SEVERITIES,
  SITE_PASS_CODES,
  EXTERNAL_VERDICT_CODES,
  SEVERITY_WEIGHTS,
  SHOWN_WORSE_CODES,
  chargedScope,
  findCheck,
  getCheck,
  maxSeverity,
  type Category,
  type CheckCode,
  type CheckDefinition,
  type CheckNeeds,
  type CheckScope,
  type PageCheckCode,
  type Severity,
  type SiteCheckCode,
} from './check-catalog.js';
export { CHECK_THRESHOLDS, type BandedMetric } from './check-thresholds.js';
export type {
  CheckFixes,
  FixPlace,
  FixReach,
  LabMetrics,
  LinkTargetInfo,
  LinkTargetLookup,
  Occurrence,
  PageFetch,
  PageResource,
  PageSummary,
  RedirectHop,
  RobotsSiteInput,
  SiteCheckInput,
  SitemapSiteInput,
} from './check.types.js';
export type {
  CheckAggregate,
  CheckResult,
  PageCheckResults,
  SiteCheckOutput,
  SiteCheckResult,
} from './check-results.js';
export {
  PAGE_CHECK_CODES,
  PAGE_EVALUATORS,
  runPageChecks,
  type PageCheckContext,
  type PageEvaluator,
} from './page-checks.js';
export { SITE_EVALUATORS, runSiteChecks, type SiteEvaluator } from './site-checks.js';
export { CHECK_EVALUATORS, SHARED_VERDICTS, type CheckEvaluator, type OtherCaller } from './check-evaluators.js';
export { summarizePage, type SummaryLimits } from './page-summary.js';
export { isFileNameAlt } from './hygiene-checks.js';
export { PageSummaryStore } from './page-summary-store.js';
export { pageIdentityKeys } from './site-pages.js';
export {
  canonicalOtherHost,
  effectiveCanonical,
  isWebUrl,
  nonIndexableReason,
  sitemapListingOutcome,
  wasRedirected,
  type ListedDocument,
  type NonIndexableReason,
} from './page-indexability.js';
export {
  LINK_TARGET_VERDICTS,
  evaluateLinkTargets,
  type LinkTargetSource,
  type LinkTargetVerdict,
  type LinkTargetVerdicts,
} from './link-target-checks.js';
export {
  findNearDuplicateHalves,
  findNearDuplicates,
  type NearDuplicateMatch,
  type NearDuplicateOptions,
} from './near-duplicate-index.js';
export { CheckAggregator, aggregateChecks, failingIssues, type AggregatorOptions } from './check-aggregator.js';
export { metaTagsReport, type MetaTagsReport } from './meta-tags-report.js';
export { isValidHreflang, isValidLangTag } from './language-tag.js';
export {
  checkStructuredData,
  structuredDataTypes,
  type StructuredDataFindings,
  type StructuredDataProblem,
} from './structured-data-rules.js';
export type { CheckOutcome } from './check-outcome.js';
export {
  pageRenderingRecord,
  renderSideDigest,
  type PageRenderingRecord,
  type RenderSideDigest,
} from './rendering-checks.js';
export { CHECK_GUIDANCE, guidanceFor, type CheckGuidance } from './check-guidance.js';
export { CHECK_DEFINITIONS, CHECK_FAMILIES } from './check-definitions.js';
// The codes other modules must name (the headers tool, the site facts, the blockers' banner), from their definitions.
export { META_CHARSET_MISSING } from './meta/head.js';
export { LINKS_INTERNAL_BROKEN, LINKS_REDIRECT_CHAIN } from './links/targets.js';
export { TECH_NOINDEX, TECH_NOINDEX_SITEWIDE } from './technical/indexing.js';
export { TECH_ROBOTS_BLOCKS_ALL, TECH_ROBOTS_MISSING, TECH_ROBOTS_UNREACHABLE } from './technical/robots.js';
export {
  TECH_CLICKJACKING_UNPROTECTED,
  TECH_CONTENT_TYPE_OPTIONS_MISSING,
  TECH_CSP_MISSING,
  TECH_HSTS_SHORT,
} from './technical/security-headers.js';
export { TECH_SITEMAP_INVALID, TECH_SITEMAP_MISSING } from './technical/sitemap.js';
export { TECH_HSTS_MISSING, TECH_HTTP_PAGE } from './technical/transport.js';
export { PERF_NO_CACHE_HEADERS, PERF_NO_COMPRESSION } from './performance/delivery.js';
export { defineCheck, type CheckSpec, type ScoreReason } from './define-check.js';
export { CHECK_PREREQUISITES } from './check-prerequisites.js';
export {
  CheckOverrides,
  checkSettingChanges,
  describeSettingChange,
  isDefaultOverride,
  overrideProblem,
  type CheckOverride,
  type CheckSettingChange,
} from './check-overrides.js';
export {
  EVIDENCE_KEYS_BY_CODE,
  EVIDENCE_KIND_BY_CODE,
  EVIDENCE_MAX_ROWS,
  presentEvidence,
  type EvidenceCell,
  type EvidenceFact,
  type EvidenceKind,
  type EvidenceTable,
  type EvidenceContext,
  type EvidenceView,
} from './evidence-view.js';
