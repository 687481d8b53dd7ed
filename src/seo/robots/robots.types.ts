/** RFC 9309 §2.5: crawlers must parse at least the first 500 KiB; we parse exactly that much. */
export const ROBOTS_MAX_BYTES = 512_000;

/** Issues kept per list, so a 500 KiB file of garbage still yields a small response. */
export const ROBOTS_MAX_ISSUES = 1_000;

export type RobotsRuleType = 'allow' | 'disallow';

/** One effective rule; `path` is the value as written in the file, `line` is 1-based. */
export interface RobotsRule {
  type: RobotsRuleType;
  path: string;
  line: number;
}

/** A group as written: its user-agent values (as written) and its rules, in file order. */
export interface RobotsGroup {
  userAgents: string[];
  rules: RobotsRule[];
}

export interface RobotsIssue {
  /** 1-based line the issue is about. */
  line: number;
  message: string;
}

/** Parsed robots.txt. Plain data: safe to serialize and cache; treat it as immutable once parsed. */
export interface RobotsTxt {
  groups: RobotsGroup[];
  /** Absolute sitemap URLs, in file order, without duplicates. */
  sitemaps: string[];
  errors: RobotsIssue[];
  warnings: RobotsIssue[];
  /** Size of the whole input in bytes (UTF-8), before truncation. */
  sizeBytes: number;
  /** True when the input exceeded ROBOTS_MAX_BYTES and only its first part was parsed. */
  truncated: boolean;
}

export interface RobotsVerdict {
  allowed: boolean;
  /** The rule that decided, or null when no rule matched (or the URL is /robots.txt). */
  matchedRule: RobotsRule | null;
}

export interface RobotsUrlTest extends RobotsVerdict {
  url: string;
  userAgent: string;
}

/** Response body of `POST /api/tools/robots` (docs/free-tools.md). */
export interface RobotsAnalysis {
  valid: boolean;
  source: string;
  sizeBytes: number;
  groups: RobotsGroup[];
  sitemaps: string[];
  errors: RobotsIssue[];
  warnings: RobotsIssue[];
  tests: RobotsUrlTest[];
}

export interface RobotsAnalysisOptions {
  testUrls?: readonly string[];
  /** User agent the test URLs are checked for; defaults to DEFAULT_TEST_USER_AGENT. */
  userAgent?: string;
  /** "content" (the default) or the URL the file was fetched from. */
  source?: string;
}

/** What a crawler does after fetching /robots.txt with a given outcome (RFC 9309 §2.3.1). */
export type RobotsFetchPolicy = 'parse' | 'allow-all' | 'disallow-all';
