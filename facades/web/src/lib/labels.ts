import type { IssueCategory, Severity } from '../gql/graphql';

/** How the app names the score categories and severities (issues list, score breakdown, client report). */
export const CATEGORY_LABEL: Record<IssueCategory, string> = {
  META: 'Meta',
  CONTENT: 'Content',
  LINKS: 'Links',
  TECHNICAL: 'Technical',
  PERFORMANCE: 'Performance',
};
export const SEVERITY_LABEL: Record<Severity, string> = { CRITICAL: 'Critical', WARNING: 'Warning', NOTICE: 'Notice' };
