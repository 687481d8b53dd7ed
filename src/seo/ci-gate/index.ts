/** The CI gate of `seo audit`: a run against a baseline, the --fail-on rules, and SARIF and JUnit reports. */
export {
  byGateOrder,
  compareOccurrences,
  occurrenceKey,
  type GateOccurrence,
  type OccurrenceComparison,
} from './baseline-comparison.js';
export {
  FAIL_ON_SYNTAX,
  GateRuleError,
  assertRulesApplicable,
  evaluateGate,
  failsNewOccurrence,
  mergeRules,
  parseFailOn,
  type FailOnRule,
  type GateVerdict,
  type RuleVerdict,
} from './gate-rules.js';
export { BaselineDocumentError, parseBaselineDocument, type Baseline } from './baseline-document.js';
export {
  SARIF_SCHEMA_URI,
  buildSarifLog,
  relativeUri,
  uriReference,
  type SarifInput,
  type SarifLog,
  type SarifUriStyle,
} from './sarif-report.js';
export { buildJunitXml, escapeXml, type GateCheck, type JunitInput } from './junit-report.js';
