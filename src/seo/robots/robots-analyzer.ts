import { isAllowed } from './robots-matcher.js';
import { parseRobotsTxt } from './robots-parser.js';
import type { RobotsAnalysis, RobotsAnalysisOptions } from './robots.types.js';

/** Generic crawler name used for test URLs when the caller names none: it gets the `*` rules. */
export const DEFAULT_TEST_USER_AGENT = 'SEOAuditBot';

/**
 * Validates a robots.txt and checks test URLs against it: the body of `POST /api/tools/robots`.
 * The caller bounds the number of test URLs.
 */
export function analyzeRobotsTxt(content: string | Uint8Array, options: RobotsAnalysisOptions = {}): RobotsAnalysis {
  const robots = parseRobotsTxt(content);
  const userAgent = options.userAgent?.trim() || DEFAULT_TEST_USER_AGENT;
  const tests = (options.testUrls ?? []).map((url) => {
    const verdict = isAllowed(robots, url, userAgent);
    return { url, userAgent, allowed: verdict.allowed, matchedRule: verdict.matchedRule };
  });
  return {
    valid: robots.errors.length === 0,
    source: options.source ?? 'content',
    sizeBytes: robots.sizeBytes,
    groups: robots.groups,
    sitemaps: robots.sitemaps,
    errors: robots.errors,
    warnings: robots.warnings,
    tests,
  };
}
