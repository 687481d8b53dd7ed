// robots.txt per RFC 9309: parse and validate, match URLs for a crawler, decide what a fetch status means.
export { parseRobotsTxt } from './robots-parser.js';
export { isAllowed, blocksAll, blockedAiSearchBots, AI_SEARCH_BOTS } from './robots-matcher.js';
export { analyzeRobotsTxt, DEFAULT_TEST_USER_AGENT } from './robots-analyzer.js';
export { robotsPolicyForStatus } from './robots-fetch-policy.js';
export { crawlerProductToken } from './robots-user-agent.js';
export { canonicalUrlPath, canonicalRulePattern, robotsPathOf } from './robots-path-encoding.js';
export { ROBOTS_MAX_BYTES, ROBOTS_MAX_ISSUES } from './robots.types.js';
export type {
  RobotsAnalysis,
  RobotsAnalysisOptions,
  RobotsFetchPolicy,
  RobotsGroup,
  RobotsIssue,
  RobotsRule,
  RobotsRuleType,
  RobotsTxt,
  RobotsUrlTest,
  RobotsVerdict,
} from './robots.types.js';
