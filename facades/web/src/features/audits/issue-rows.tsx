import { type AuditIssueListQuery, type IssueCategory, type Severity } from '../../gql/graphql';
import { CATEGORIES, type IssueSearch } from './search-params';

export type IssueRow = AuditIssueListQuery['audit']['issues'][number];
export type Row =
  { kind: 'group'; category: IssueCategory; counts: Record<Severity, number> } | { kind: 'issue'; issue: IssueRow };

/**
 * The issues the filters let through, in the order the API lists them (Audit.issues: most severe first, then the
 * larger priority within a severity; the rule is the server's, src/audits/issue-order.ts): one list, or
 * (search.group) in category groups, in that order within each.
 */
export function buildRows(issues: readonly IssueRow[], search: IssueSearch, text: string): Row[] {
  const needle = text.trim().toLowerCase();
  const shown = issues.filter(
    (i) =>
      (!search.severity || search.severity.includes(i.severity)) &&
      (!search.category || i.category === search.category) &&
      (!needle ||
        i.title.toLowerCase().includes(needle) ||
        i.code.toLowerCase().includes(needle) ||
        i.description.toLowerCase().includes(needle)),
  );
  if (!search.group) return shown.map((issue): Row => ({ kind: 'issue', issue }));
  const rows: Row[] = [];
  for (const category of CATEGORIES) {
    const inGroup = shown.filter((i) => i.category === category);
    if (!inGroup.length) continue;
    const counts = { CRITICAL: 0, WARNING: 0, NOTICE: 0 };
    for (const i of inGroup) counts[i.severity] += 1;
    rows.push({ kind: 'group', category, counts }, ...inGroup.map((issue): Row => ({ kind: 'issue', issue })));
  }
  return rows;
}
