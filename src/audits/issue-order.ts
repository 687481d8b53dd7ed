import { issuePriority } from '../seo/scoring/index.js';
import { SEVERITY_ORDER } from './audit.service.js';
import type { IssueRankingInputs } from './audit.types.js';

/**
 * The order an audit's issues are read in (GraphQL `Audit.issues`, and so the issues page, which keeps it): the more
 * severe first (CRITICAL, WARNING, NOTICE); within a severity the larger priority first (issuePriority: the issue's
 * cost, plus what pages ranking for tracked keywords add), then the wider, then the code. The ranking term orders the
 * issues of one severity only: a NOTICE on pages that rank for many keywords never comes before a WARNING, nor a
 * WARNING before a CRITICAL.
 */

const SEVERITY_RANK: Readonly<Record<string, number>> = SEVERITY_ORDER;

/** What the order reads of an issue. */
export interface OrderedIssue {
  code: string;
  severity: string;
  affectedPages: number;
  /** Its priority (issuePriorityOf). */
  priority: number;
}

/** Issue order as a comparator: severity, then the larger priority, then the more affected pages, then the code. */
export function compareIssues(a: OrderedIssue, b: OrderedIssue): number {
  return (
    (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3) ||
    b.priority - a.priority ||
    b.affectedPages - a.affectedPages ||
    a.code.localeCompare(b.code)
  );
}

/** An issue's fields its priority is computed from. */
export interface PricedIssue {
  auditId: string;
  code: string;
  severity: string;
  category: string;
  affectedPages: number;
  applicablePages: number;
  /** A fix-grouped issue's fixes (only whether it has them is read here). */
  fixes?: unknown;
  /** Of affectedPages: URLs charged as another check's fix. */
  chargedElsewhere?: number;
  /** Set when the issue is narrowed to a segment's URLs: its counts are the segment's, not the audit's. */
  segmentOccurrences?: number | null;
}

/** An issue's priority in its audit: its cost over the audit's HTML pages, plus its ranking term (issuePriority). */
export function issuePriorityOf(issue: PricedIssue, inputs: IssueRankingInputs): number {
  // The severity and category are stored as the catalog's names (audit_issue's check constraints).
  const check = issue as PricedIssue & Parameters<typeof issuePriority>[0];
  // A fix-grouped issue, or one charged as another's fix, costs what the audit's score charged it (its fixes' reach is
  // not stored whole); narrowed to a segment, it is priced on the segment's pages as one fix.
  const whole = issue.segmentOccurrences === undefined || issue.segmentOccurrences === null;
  const charged =
    whole && (issue.fixes || (issue.chargedElsewhere ?? 0) > 0) ? (inputs.costPoints.get(issue.code) ?? 0) : undefined;
  return issuePriority(
    { ...check, fixes: undefined },
    inputs.htmlPages,
    inputs.ranking.rankingWeightOf(issue.auditId, issue.code),
    charged,
  );
}

/** `issues` in issue order (a new array), each issue's priority computed once. */
export function inIssueOrder<T extends PricedIssue>(issues: readonly T[], inputs: IssueRankingInputs): T[] {
  const keyed = issues.map((issue) => ({
    issue,
    code: issue.code,
    severity: issue.severity,
    affectedPages: issue.affectedPages,
    priority: issuePriorityOf(issue, inputs),
  }));
  return keyed.sort(compareIssues).map((k) => k.issue);
}
