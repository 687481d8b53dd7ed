/** The audit check catalog, per-page and site-wide checks, and their aggregation into issues. */
export {
  CATEGORIES,
  CHECK_CATALOG,
  CHECKS_BY_CODE,
  SEVERITIES,
  SEVERITY_WEIGHTS,
  SHOWN_WORSE_CODES,
  chargedScope,
  findCheck,
  getCheck,
  maxSeverity,
  type Category,
  type CheckCode,
  type CheckDefinition,
  type CheckScope,
  type PageCheckCode,
  type Severity,
  type SiteCheckCode,
} from './check-catalog.js';
export { CHECK_THRESHOLDS, type BandedCheckCode } from './check-thresholds.js';
export type {
  CheckFixes,
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
export { PAGE_CHECK_CODES, PAGE_EVALUATORS, runPageChecks, type PageEvaluator } from './page-checks.js';
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
  LINK_TARGET_CODES,
  evaluateLinkTargets,
  type LinkTargetCode,
  type LinkTargetSource,
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
export { defineCheck, type CheckSpec } from './define-check.js';
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
