import { type AuditIssueListQuery, type IssueCategory, type Severity } from '../../gql/graphql';
import { CATEGORIES, type IssueSearch } from './search-params';

export type IssueRow = AuditIssueListQuery['audit']['issues'][number];
export type Row =
  { kind: 'group'; category: IssueCategory; counts: Record<Severity, number> } | { kind: 'issue'; issue: IssueRow };

export const SEVERITY_RANK: Record<Severity, number> = { CRITICAL: 0, WARNING: 1, NOTICE: 2 };

/**
 * Larger priority first (what fixing it gives back: its cost, more on pages that rank for tracked keywords), then the
 * more severe, the wider, the code.
 */
export const byPriority = (a: IssueRow, b: IssueRow) =>
  b.priority - a.priority ||
  SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
  b.affectedPages - a.affectedPages ||
  a.code.localeCompare(b.code);

/**
 * The issues the filters let through: one list in priority order, or (search.group) in category groups, by priority
 * within each.
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
  if (!search.group) return [...shown].sort(byPriority).map((issue): Row => ({ kind: 'issue', issue }));
  const rows: Row[] = [];
  for (const category of CATEGORIES) {
    const inGroup = shown.filter((i) => i.category === category).sort(byPriority);
    if (!inGroup.length) continue;
    const counts = { CRITICAL: 0, WARNING: 0, NOTICE: 0 };
    for (const i of inGroup) counts[i.severity] += 1;
    rows.push({ kind: 'group', category, counts }, ...inGroup.map((issue): Row => ({ kind: 'issue', issue })));
  }
  return rows;
}
