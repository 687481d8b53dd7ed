/**
 * What alert rules are evaluated against: the facts of one finished audit (against the previous completed audit of
 * its project) or of one project's rank check. Providers fill them (src/comparison for new issues and page status
 * changes, this module for scores, vitals and keyword moves); src/alerts/alert-rules.ts only reads them.
 */

export type IssueSeverityName = 'CRITICAL' | 'WARNING' | 'NOTICE';
export type VitalMetric = 'LCP' | 'CLS' | 'INP' | 'TBT' | 'FCP' | 'TTFB';

/** An audit's six scores (0-100); null where the audit has none for the category. */
export interface CategoryScores {
  overall: number | null;
  meta: number | null;
  content: number | null;
  links: number | null;
  technical: number | null;
  performance: number | null;
}

export interface NewIssueFact {
  code: string;
  title: string;
  severity: IssueSeverityName;
  /** Pages on which the issue is new. */
  urls: number;
  exampleUrls: string[];
}

export interface PageSideFact {
  statusCode: number | null;
  indexable: boolean;
}

export interface PageRegressionFact {
  url: string;
  before: PageSideFact;
  after: PageSideFact;
}

/** A Core Web Vital of a URL that is "poor" now and was not (or was not measured) in the base audit. */
export interface VitalPoorFact {
  url: string;
  metric: VitalMetric;
  value: number;
  before: number | null;
}

export interface AuditAlertFacts {
  projectId: string;
  auditId: string;
  /** The previous completed audit of the project. */
  baseAuditId: string | null;
  scores: { before: CategoryScores | null; after: CategoryScores };
  /**
   * True when either audit's scores leave out occurrences marked "won't fix": `scores` are then both audits' scores
   * as scored before any marking (a marking, or its undoing, is no score drop).
   */
  scoresBeforeWontFix: boolean;
  /**
   * How the check settings of the two audits differ, in words ("… (TECH_HTTP_PAGE) disabled"); empty when both were
   * scored alike. A settings change alone is no score drop, and an issue of a check the base did not run is not new.
   */
  settingChanges: string[];
  newIssues: NewIssueFact[];
  pageRegressions: PageRegressionFact[];
  vitalsPoor: VitalPoorFact[];
  /** The segments the project's enabled rules watch, each on its own figures (absent: none is watched). */
  segments?: SegmentAlertFacts[];
}

/**
 * One segment of the project in both audits (its rule as it is now, applied to each): its scores as the audits
 * scored before "won't fix" markings, and the issues new on its URLs.
 */
export interface SegmentAlertFacts {
  segmentId: string;
  name: string;
  scores: { before: CategoryScores; after: CategoryScores };
  newIssues: NewIssueFact[];
}

/** One keyword between its last two successful checks (positions null: not within the checked depth). */
export interface KeywordMoveFact {
  keywordId: string;
  keyword: string;
  before: number | null;
  after: number | null;
  url: string | null;
}

/**
 * A keyword for which two or more of the site's URLs ranked at its latest check, and fewer at the check before (or
 * none before): cannibalised anew. The URLs are the site's (src/keywords/cannibalisation.ts), best position first.
 */
export interface KeywordCannibalisedFact {
  keywordId: string;
  keyword: string;
  urls: { url: string; position: number }[];
  /** Site URLs that ranked at the successful check before (0: none, or no check before). */
  urlsBefore: number;
}

export interface RankAlertFacts {
  projectId: string;
  moves: KeywordMoveFact[];
  cannibalised: KeywordCannibalisedFact[];
}
